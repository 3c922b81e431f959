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
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
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
 * One call's Inworld TTS WebSocket ({@code /tts/v1/voice:streamBidirectional}, {@code Authorization: Basic} with the
 * key as Inworld issues it), the API Inworld's docs recommend for voice agents as the lowest-latency one
 * (docs.inworld.ai "Synthesize Speech (WebSocket)" and its API reference; inworld-api-examples
 * tts/js/example_tts_low_latency_ws.js; pipecat's services/inworld/tts.py). Each sentence is a context of its own,
 * created, given its text with {@code flush_context} and closed in three messages sent back to back (Inworld handles
 * them in order): the voice, the model, the call's own format ({@code MULAW} at 8 kHz on the phone, raw {@code PCM} at
 * 16 kHz in a browser: no transcoding), the speaking rate, and for TTS-2 the language and delivery mode; word timestamps
 * asked for, delivered after the audio they time ({@code ASYNC}, the lower time to first audio). Its audio comes back
 * as {@code audioChunk} results (a WAV header, where Inworld puts one at a flush's first chunk, is dropped), its words
 * in their {@code timestampInfo} (seconds from the start of the sentence's generation), and {@code contextClosed} ends
 * it. A non-zero {@code status} or an {@code error} (a refused key after the upgrade) fails the stream with Inworld's
 * words.
 *
 * <p>Inworld allows 5 contexts per connection: at most {@link #MAX_CONTEXTS} are in flight, the next sentences wait
 * their turn. Inworld has no way to stop a context short (closing one synthesizes what it holds), so a barge-in drops
 * whatever of the sentence still arrives; its context counts against the limit until its {@code contextClosed}. A
 * socket that drops with sentences in flight is opened again at once and those sentences spoken again on it, in order,
 * each after a {@link TextToSpeech.Listener#restart restart} when some of its audio had come; one idle (Inworld closes
 * a connection idle for 10 minutes) is opened again on the next sentence ({@link WarmSocket}). The characters of a
 * sentence count when its {@code contextClosed} comes, or when it is cancelled after some of its audio came
 * ({@link TextToSpeech.Stream#characters()}).
 */
final class InworldStream extends WarmSocket implements TextToSpeech.Stream {

    static final int MAX_CONTEXTS = 4;
    private static final Base64.Decoder DECODE = Base64.getDecoder();

    private final AudioFormat format;
    private final JsonObject create;
    /** The sentences sent whose contextClosed has not come, in the order they were sent, with their text. */
    private final Map<String, String> open = new LinkedHashMap<>();
    /** Cancelled sentences whose context is still open at Inworld. */
    private final Set<String> cancelled = new LinkedHashSet<>();
    /** Sentences some of whose audio came (since they were last sent). */
    private final Set<String> delivered = new HashSet<>();
    private final Deque<String[]> waiting = new ArrayDeque<>();
    /** A browser's call: each sentence's PCM in whole samples. */
    private final Map<String, PcmChunks> pcm = new HashMap<>();
    private long characters;

    InworldStream(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, AudioFormat format,
            JsonObject create, TextToSpeech.Listener listener) {
        super(connect, vertx, budget, "Inworld", listener);
        this.format = format;
        this.create = create;
        connect();
    }

    /** Inworld's rate range for {@code speakingRate}. */
    static final double SLOWEST = 0.5;
    static final double FASTEST = 1.5;

    /**
     * What every sentence's context is created with: voice, model, the call's format, word timestamps after the audio;
     * the speed when it is not 1 (kept within Inworld's 0.5-1.5); the language and delivery mode for TTS-2 models only
     * (the others take neither).
     */
    static JsonObject create(String model, String voice, String language, Double speed, String deliveryMode,
            AudioFormat format) {
        JsonObject audio = new JsonObject()
                .put("audioEncoding", format.encoding() == AudioFormat.Encoding.MULAW ? "MULAW" : "PCM")
                .put("sampleRateHertz", format.sampleRate());
        if (speed != null && speed > 0 && speed != 1.0) {
            audio.put("speakingRate", Math.max(SLOWEST, Math.min(FASTEST, speed)));
        }
        JsonObject create = new JsonObject().put("voiceId", voice).put("modelId", model).put("audioConfig", audio)
                .put("timestampType", "WORD").put("timestampTransportStrategy", "ASYNC");
        if (model.startsWith("inworld-tts-2")) {
            if (language != null && !language.isBlank()) {
                create.put("language", language.strip());
            }
            if (deliveryMode != null && !deliveryMode.isBlank()) {
                create.put("deliveryMode", deliveryMode.strip());
            }
        }
        return create;
    }

    /** A {@code timestampInfo}'s words, in ms from the sentence's start. */
    static List<HeardText.Word> words(JsonObject timestampInfo) {
        List<HeardText.Word> out = new ArrayList<>();
        JsonObject alignment = timestampInfo == null ? null : timestampInfo.getJsonObject("wordAlignment");
        JsonArray words = alignment == null ? null : alignment.getJsonArray("words");
        JsonArray starts = alignment == null ? null : alignment.getJsonArray("wordStartTimeSeconds");
        JsonArray ends = alignment == null ? null : alignment.getJsonArray("wordEndTimeSeconds");
        int n = words == null || starts == null || ends == null ? 0
                : Math.min(words.size(), Math.min(starts.size(), ends.size()));
        for (int i = 0; i < n; i++) {
            String word = String.valueOf(words.getValue(i)).strip();
            if (!word.isEmpty()) {
                out.add(new HeardText.Word(word, Math.round(((Number) starts.getValue(i)).doubleValue() * 1000),
                        Math.round(((Number) ends.getValue(i)).doubleValue() * 1000)));
            }
        }
        return out;
    }

    /** The audio after a RIFF/WAVE header at the chunk's start (up to its {@code data} chunk), or the chunk as it is. */
    static byte[] withoutWavHeader(byte[] chunk) {
        ByteBuffer b = ByteBuffer.wrap(chunk).order(ByteOrder.LITTLE_ENDIAN);
        if (chunk.length < 12 || b.getInt(0) != 0x46464952 || b.getInt(8) != 0x45564157) { // "RIFF", "WAVE"
            return chunk;
        }
        int at = 12;
        while (at + 8 <= chunk.length) {
            int id = b.getInt(at);
            long size = b.getInt(at + 4) & 0xFFFF_FFFFL;
            if (id == 0x61746164) { // "data"
                return Arrays.copyOfRange(chunk, at + 8, chunk.length);
            }
            long after = at + 8 + size + (size & 1);
            if (after > chunk.length) {
                break;
            }
            at = (int) after;
        }
        return new byte[0];
    }

    @Override
    protected synchronized boolean inFlight() {
        return !open.isEmpty();
    }

    @Override
    protected synchronized void lost() {
        cancelled.clear(); // the old socket's contexts are gone with it
    }

    /** A socket opened: every sentence in flight again, in order. */
    @Override
    protected synchronized void opened(WebSocket ws) {
        for (Map.Entry<String, String> sentence : open.entrySet()) {
            if (delivered.remove(sentence.getKey())) {
                listener.restart(sentence.getKey());
            }
            send(ws, sentence.getKey(), sentence.getValue());
        }
        next();
    }

    /** A context: created, its text flushed, closed (Inworld finishes it, then says contextClosed). */
    private void send(WebSocket ws, String utterance, String text) {
        if (format.encoding() == AudioFormat.Encoding.PCM16LE) {
            pcm.put(utterance, PcmChunks.to(format));
        }
        ws.writeTextMessage(new JsonObject().put("create", create.copy()).put("contextId", utterance).encode());
        ws.writeTextMessage(new JsonObject().put("send_text", new JsonObject().put("text", text + " ")
                .put("flush_context", new JsonObject())).put("contextId", utterance).encode());
        ws.writeTextMessage(new JsonObject().put("close_context", new JsonObject()).put("contextId", utterance)
                .encode());
    }

    /** Sends waiting sentences while Inworld has room for their contexts. */
    private void next() {
        while (open.size() + cancelled.size() < MAX_CONTEXTS && !waiting.isEmpty() && !closed) {
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

    /** Whether the stream is over (closed, or failed: what still arrives on its socket is not heard). */
    private synchronized boolean over() {
        return closed;
    }

    @Override
    protected void message(String text) {
        if (over()) {
            return;
        }
        JsonObject json;
        try {
            json = new JsonObject(text);
        } catch (DecodeException e) {
            return;
        }
        if (json.getValue("error") != null) {
            giveUp("Inworld: " + said(json.getValue("error")));
            return;
        }
        JsonObject result = json.getJsonObject("result");
        if (result == null) {
            return;
        }
        String context = result.getString("contextId");
        JsonObject status = result.getJsonObject("status");
        if (status != null && status.getInteger("code", 0) != 0) {
            if (context == null || isOpen(context)) {
                giveUp("Inworld: " + said(status));
            } else {
                closedAtInworld(context); // a cancelled sentence's context: no contextClosed may follow
            }
            return;
        }
        if (context == null) {
            return;
        }
        JsonObject chunk = result.getJsonObject("audioChunk");
        if (chunk != null) {
            byte[] audio = audio(context, chunk.getString("audioContent"));
            if (audio != null && audio.length > 0) {
                listener.audio(context, audio);
            }
            List<HeardText.Word> said = words(chunk.getJsonObject("timestampInfo"));
            if (!said.isEmpty() && isOpen(context)) {
                listener.words(context, said);
            }
        }
        if (result.containsKey("contextClosed") && finished(context)) {
            listener.done(context);
        }
    }

    /** Inworld's words of a failure: its message and code. */
    private static String said(Object error) {
        if (error instanceof JsonObject body) {
            Object code = body.getValue("code");
            return body.getString("message", "an error") + (code == null ? "" : " (code " + code + ")");
        }
        return String.valueOf(error);
    }

    private synchronized boolean isOpen(String context) {
        return open.containsKey(context);
    }

    /** A chunk's audio for a sentence in flight, in the call's format; null for anything else. */
    private synchronized byte[] audio(String context, String data) {
        if (!open.containsKey(context) || data == null || data.isEmpty()) {
            return null;
        }
        byte[] bytes = withoutWavHeader(DECODE.decode(data));
        if (bytes.length == 0) {
            return null;
        }
        delivered.add(context);
        PcmChunks whole = pcm.get(context);
        return whole == null ? bytes : whole.next(bytes);
    }

    /** The sentence's context closed: its characters count, and the next waiting sentence goes. */
    private synchronized boolean finished(String context) {
        String text = open.remove(context);
        closedAtInworld(context);
        if (text != null) {
            characters += text.length();
        }
        return text != null;
    }

    private synchronized void closedAtInworld(String context) {
        delivered.remove(context);
        pcm.remove(context);
        cancelled.remove(context);
        next();
    }

    @Override
    public synchronized void speak(String utterance, String text) {
        if (closed) {
            return;
        }
        waiting.addLast(new String[] {utterance, text});
        next();
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
            if (socket() != null) {
                cancelled.add(utterance); // its context counts against Inworld's limit until its contextClosed
            }
            if (delivered.remove(utterance)) {
                characters += text.length();
            }
            pcm.remove(utterance);
        }
    }

    @Override
    public synchronized long characters() {
        return characters;
    }

    @Override
    public void close() {
        shut(null);
    }
}
