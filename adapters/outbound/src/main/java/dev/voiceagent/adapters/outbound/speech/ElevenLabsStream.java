package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.outbound.RetryBudget;
import dev.voiceagent.domain.voice.HeardText;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One call's ElevenLabs multi-context WebSocket (/v1/text-to-speech/{voice}/multi-stream-input), opened when the call
 * starts and kept warm: each sentence is a context of its own (its text, then a flush), its audio comes back in the
 * call's format (ulaw_8000 on the phone: no transcoding). The context is closed right after its flush (ElevenLabs
 * finishes what it holds, then says isFinal), so an interruption leaves nothing open on the provider's side: its late
 * audio is dropped here. ElevenLabs allows 5 contexts per connection: at most {@link #MAX_CONTEXTS} are in flight, the
 * next sentences wait their turn. Each audio message's alignment (asked for with sync_alignment: characters with start
 * times and durations, restarting at zero in every message) becomes the sentence's words on its audio, for what a
 * barge-in keeps of it.
 *
 * <p>As ElevenLabs' stream-input protocol has it, the first message on every socket (the first, and one opened again)
 * initialises the connection: the text {@code " "} (a single space, nothing spoken) with the voice settings and the
 * key ({@code xi_api_key}, beside the header); a context's own first message carries its text ending with a single
 * space and the voice settings again (a context opened without them could not take them later), then its flush and
 * close. A socket that drops with sentences in flight is opened again at once and those sentences spoken again on it,
 * in order, each after a {@link TextToSpeech.Listener#restart restart} when some of its audio had come; one idle is
 * opened again on the next sentence ({@link WarmSocket}). The characters of a sentence count when its isFinal comes,
 * or when it is cancelled after some of its audio came ({@link TextToSpeech.Stream#characters()}).
 */
final class ElevenLabsStream extends WarmSocket implements TextToSpeech.Stream {

    static final int MAX_CONTEXTS = 4;
    private static final Base64.Decoder DECODE = Base64.getDecoder();

    private final AudioFormat format;
    private final JsonObject voiceSettings;
    private final String key;
    private final Map<String, Words> words = new HashMap<>();
    /** The sentences sent whose isFinal has not come, in the order they were sent, with their text. */
    private final Map<String, String> open = new LinkedHashMap<>();
    private final Set<String> cancelled = new LinkedHashSet<>();
    /** Sentences some of whose audio came (since they were last sent). */
    private final Set<String> delivered = new HashSet<>();
    private final Deque<String[]> waiting = new ArrayDeque<>();
    private long characters;

    ElevenLabsStream(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, AudioFormat format,
            JsonObject voiceSettings, String key, TextToSpeech.Listener listener) {
        super(connect, vertx, budget, "ElevenLabs", listener);
        this.format = format;
        this.voiceSettings = voiceSettings;
        this.key = key;
        connect();
    }

    /** The first message on every socket: a single space with the voice settings and the key. */
    JsonObject initialisation() {
        return new JsonObject().put("text", " ").put("voice_settings", voiceSettings.copy()).put("xi_api_key", key);
    }

    /** A sentence's words so far: its audio received (ms) and the word its last message left unfinished. */
    static final class Words {
        long audioBytes;
        final StringBuilder partial = new StringBuilder();
        long partialStart;
        long partialEnd;
    }

    /**
     * The words an audio message's alignment completes, on the sentence's audio: the message's characters start at
     * zero where its audio starts, which is after the audio the sentence already had. A word ends at a space; the
     * last one waits for the next message (or the sentence's end).
     */
    static List<HeardText.Word> words(Words w, JsonObject alignment, long audioStartMs, boolean last) {
        List<HeardText.Word> out = new ArrayList<>();
        JsonArray chars = alignment == null ? null : alignment.getJsonArray("chars");
        JsonArray starts = alignment == null ? null : alignment.getJsonArray("charStartTimesMs");
        JsonArray durations = alignment == null ? null : alignment.getJsonArray("charDurationsMs",
                alignment.getJsonArray("charsDurationsMs"));
        int n = chars == null || starts == null || durations == null ? 0
                : Math.min(chars.size(), Math.min(starts.size(), durations.size()));
        for (int i = 0; i < n; i++) {
            String c = String.valueOf(chars.getValue(i));
            long start = audioStartMs + ((Number) starts.getValue(i)).longValue();
            long end = start + ((Number) durations.getValue(i)).longValue();
            if (c.isBlank()) {
                flush(w, out);
            } else {
                if (w.partial.isEmpty()) {
                    w.partialStart = start;
                }
                w.partial.append(c);
                w.partialEnd = end;
            }
        }
        if (last) {
            flush(w, out);
        }
        return out;
    }

    private static void flush(Words w, List<HeardText.Word> out) {
        if (!w.partial.isEmpty()) {
            out.add(new HeardText.Word(w.partial.toString(), w.partialStart, w.partialEnd));
            w.partial.setLength(0);
        }
    }

    static String output(AudioFormat format) {
        return switch (format.encoding()) {
            case MULAW -> "ulaw_" + format.sampleRate();
            case PCM16LE -> "pcm_" + format.sampleRate();
            default -> throw new IllegalArgumentException("no ElevenLabs output for " + format);
        };
    }

    /** A socket opened: the connection's initialisation, then every sentence in flight again, in order. */
    @Override
    protected synchronized void opened(WebSocket ws) {
        ws.writeTextMessage(initialisation().encode());
        for (Map.Entry<String, String> sentence : open.entrySet()) {
            String utterance = sentence.getKey();
            if (delivered.remove(utterance)) {
                words.remove(utterance);
                listener.restart(utterance);
            }
            send(ws, utterance, sentence.getValue());
        }
    }

    /** A context: its text (ending with a single space) and the voice settings, its flush, its close. */
    private void send(WebSocket ws, String utterance, String text) {
        ws.writeTextMessage(new JsonObject().put("text", text + " ").put("context_id", utterance)
                .put("voice_settings", voiceSettings.copy()).encode());
        ws.writeTextMessage(new JsonObject().put("context_id", utterance).put("flush", true).encode());
        ws.writeTextMessage(new JsonObject().put("context_id", utterance).put("close_context", true).encode());
    }

    @Override
    protected synchronized void lost() {
        cancelled.clear(); // the old socket's contexts are gone with it
    }

    @Override
    protected synchronized boolean inFlight() {
        return !open.isEmpty();
    }

    @Override
    protected void message(String text) {
        JsonObject json;
        try {
            json = new JsonObject(text);
        } catch (DecodeException e) {
            return;
        }
        String context = json.getString("contextId", json.getString("context_id"));
        if (context == null) {
            if (json.getValue("error") != null || json.getValue("message") != null) {
                giveUp("ElevenLabs: " + json.getValue("message", json.getValue("error")));
            }
            return;
        }
        String audio = json.getString("audio");
        boolean last = Boolean.TRUE.equals(json.getBoolean("isFinal"));
        if (audio != null && !audio.isEmpty() && isOpen(context)) {
            byte[] bytes = DECODE.decode(audio);
            delivered(context);
            Words w = words(context);
            List<HeardText.Word> said = words(w, json.getJsonObject("alignment"), format.millis(w.audioBytes), last);
            w.audioBytes += bytes.length;
            listener.audio(context, bytes);
            if (!said.isEmpty()) {
                listener.words(context, said);
            }
        } else if (last && isOpen(context)) {
            List<HeardText.Word> said = words(words(context), null, 0, true);
            if (!said.isEmpty()) {
                listener.words(context, said);
            }
        }
        if (last && finished(context)) {
            listener.done(context);
        }
    }

    private synchronized boolean isOpen(String context) {
        return open.containsKey(context);
    }

    private synchronized void delivered(String context) {
        delivered.add(context);
    }

    private synchronized Words words(String context) {
        return words.computeIfAbsent(context, c -> new Words());
    }

    /** The context's last audio came: its characters count, and the next waiting sentence goes. */
    private synchronized boolean finished(String context) {
        words.remove(context);
        delivered.remove(context);
        String text = open.remove(context);
        if (text != null) {
            characters += text.length();
        }
        cancelled.remove(context);
        next();
        return text != null;
    }

    @Override
    public synchronized void speak(String utterance, String text) {
        if (closed) {
            return;
        }
        waiting.addLast(new String[] {utterance, text});
        next();
    }

    private void next() {
        while (open.size() + cancelled.size() < MAX_CONTEXTS && !waiting.isEmpty()) {
            String[] u = waiting.pollFirst();
            open.put(u[0], u[1]);
            WebSocket ws = socket();
            if (ws == null) {
                connect(); // the socket that opens speaks it
            } else {
                send(ws, u[0], u[1]);
            }
        }
    }

    /**
     * An interrupted sentence: not sent if it waited; its audio, if it is in flight, is dropped as it comes. It counts
     * when some of its audio had come.
     */
    @Override
    public synchronized void cancel(String utterance) {
        waiting.removeIf(u -> u[0].equals(utterance));
        String text = open.remove(utterance);
        if (text != null) {
            cancelled.add(utterance); // still counts against the provider's contexts until its isFinal
            if (delivered.remove(utterance)) {
                characters += text.length();
            }
        }
        words.remove(utterance);
    }

    @Override
    public synchronized long characters() {
        return characters;
    }

    @Override
    public void close() {
        shut("{\"close_socket\":true}");
    }
}
