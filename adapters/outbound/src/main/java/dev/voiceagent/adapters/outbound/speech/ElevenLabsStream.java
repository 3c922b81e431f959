package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.voice.HeardText;
import io.vertx.core.Future;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.HashMap;
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
 * next sentences wait their turn. A socket the provider closed for inactivity is opened again on the next sentence.
 * Each audio message's alignment (asked for with sync_alignment: characters with start times and durations, restarting
 * at zero in every message) becomes the sentence's words on its audio, for what a barge-in keeps of it.
 */
final class ElevenLabsStream extends WarmSocket implements TextToSpeech.Stream {

    static final int MAX_CONTEXTS = 4;
    private static final Base64.Decoder DECODE = Base64.getDecoder();

    private final AudioFormat format;
    private final Map<String, Words> words = new HashMap<>();
    private final Set<String> open = new LinkedHashSet<>();
    private final Set<String> cancelled = new LinkedHashSet<>();
    private final Deque<String[]> waiting = new ArrayDeque<>();
    private long characters;

    ElevenLabsStream(Supplier<Future<WebSocket>> connect, AudioFormat format, TextToSpeech.Listener listener) {
        super(connect, "ElevenLabs", listener);
        this.format = format;
        connect();
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

    @Override
    protected synchronized void lost() {
        cancelled.clear();
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
                listener.failed("ElevenLabs: " + json.getValue("message", json.getValue("error")));
            }
            return;
        }
        String audio = json.getString("audio");
        boolean last = Boolean.TRUE.equals(json.getBoolean("isFinal"));
        if (audio != null && !audio.isEmpty() && isOpen(context)) {
            byte[] bytes = DECODE.decode(audio);
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
        return open.contains(context);
    }

    private synchronized Words words(String context) {
        return words.computeIfAbsent(context, c -> new Words());
    }

    /** The context's last audio came: the next waiting sentence goes. */
    private synchronized boolean finished(String context) {
        words.remove(context);
        boolean known = open.remove(context);
        cancelled.remove(context);
        next();
        return known;
    }

    @Override
    public synchronized void speak(String utterance, String text) {
        if (closed) {
            return;
        }
        characters += text.length();
        waiting.addLast(new String[] {utterance, text});
        next();
    }

    private void next() {
        while (open.size() + cancelled.size() < MAX_CONTEXTS && !waiting.isEmpty()) {
            String[] u = waiting.pollFirst();
            open.add(u[0]);
            write(new JsonObject().put("text", u[1] + " ").put("context_id", u[0]).encode());
            write(new JsonObject().put("context_id", u[0]).put("flush", true).encode());
            write(new JsonObject().put("context_id", u[0]).put("close_context", true).encode());
        }
    }

    /** An interrupted sentence: not sent if it waited; its audio, if it is in flight, is dropped as it comes. */
    @Override
    public synchronized void cancel(String utterance) {
        waiting.removeIf(u -> u[0].equals(utterance));
        if (open.remove(utterance)) {
            cancelled.add(utterance); // still counts against the provider's contexts until its isFinal
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
