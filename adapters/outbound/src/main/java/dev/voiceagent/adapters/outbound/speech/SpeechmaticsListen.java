package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One call's Speechmatics real-time transcription ({@code wss://eu2.rt.speechmatics.com/v2}, the key as a Bearer
 * token; the protocol of docs.speechmatics.com/api-ref/realtime-transcription-websocket and its AsyncAPI spec,
 * github.com/speechmatics/docs spec/realtime.yaml; pipecat's services/speechmatics/stt.py drives the same API through
 * Speechmatics' SDK). Every socket begins with {@code StartRecognition}: the call's audio as it is (raw {@code mulaw}
 * at 8 kHz from a phone, {@code pcm_s16le} at the call's rate from a browser), the language, the operating point
 * (the configuration's model, {@code enhanced} or {@code standard}), partials, a {@link #MAX_DELAY} s
 * {@code max_delay}, an end of utterance after {@link #SILENCE_TRIGGER} s of silence (Speechmatics then finalizes the
 * words at once instead of after the delay) and the workflow's dictionary as {@code additional_vocab}. Audio goes as
 * binary {@code AddAudio} messages as the call's frames come, once Speechmatics answered {@code RecognitionStarted}
 * (not before: the spec has the client wait for it). When our voice activity hears the caller stop,
 * {@code ForceEndOfUtterance} (with the socket's audio time, for accuracy) asks for the words now; at the end,
 * {@code EndOfStream} with the number of audio messages sent ({@code last_seq_no}), answered by
 * {@code EndOfTranscript}. No keep-alive: the call's audio never pauses, and Speechmatics closes a session only after
 * three minutes without audio or pings.
 *
 * <p>{@code AddPartialTranscript} is interim; {@code AddTranscript} is final (Speechmatics finalizes words as it goes,
 * each final carrying the words after the previous one). Once a ForceEndOfUtterance was sent, the finals up to its
 * answer (the {@code forced} AddTranscript, or the {@code EndOfUtterance} that ends the utterance) are one final, given
 * then, even empty: the recognizer has nothing more, so the turn can be answered now, and never only its first words.
 * An end of utterance Speechmatics detects itself is not passed on: our voice activity decides turns.
 *
 * <p>The socket outlives its connection ({@link ProviderSocket}): the caller's audio no final settled is kept
 * ({@link UnsettledAudio}; Speechmatics' finals, empty ones included, settle the audio up to their
 * {@code metadata.end_time}) and sent first on every socket opened again, then the ForceEndOfUtterance no answer
 * followed yet. An {@code Error} that refuses the session for good (a key or account not allowed, a model, language
 * or configuration it will not take, the usage quota spent) or a close with its code fails the stream at once with
 * Speechmatics' words; any other error (a job error, a time limit) or an {@code EndOfTranscript} we did not ask for
 * ends the session, which is opened again within the budget. Usage counts the caller's audio once.
 */
final class SpeechmaticsListen extends ProviderSocket implements SpeechToText.Stream {

    private static final System.Logger LOG = System.getLogger(SpeechmaticsListen.class.getName());

    /** The most caller audio kept for a socket opened again (the audio no final settled). */
    static final int UNSETTLED_MS = 15_000;
    /** Seconds from a word to its final (Speechmatics takes 0.7 to 4; above the silence trigger). */
    static final double MAX_DELAY = 1.0;
    /** Seconds of silence after which Speechmatics ends an utterance, finalizing its words. */
    static final double SILENCE_TRIGGER = 0.5;
    /** The most dictionary words sent: Speechmatics' custom dictionary takes up to 1000. */
    static final int MAX_VOCAB = 1_000;
    /** Error types of a session refused for good (not worth another try). */
    static final Set<String> REFUSALS = Set.of("not_authorised", "not_allowed", "invalid_model", "invalid_language",
            "invalid_config", "invalid_audio_type", "timelimit_exceeded");
    /** Close codes of the same refusals when the Error frame did not reach us. */
    static final Set<Integer> REFUSAL_CODES = Set.of(4001, 4003, 4004, 4006);

    private final SpeechToText.Listener listener;
    private final AudioFormat format;
    private final JsonObject start;
    /** The caller's audio not settled yet, and the ForceEndOfUtterance sent that no answer followed yet. */
    private final UnsettledAudio unsettled = new UnsettledAudio();
    /** The finals heard since a ForceEndOfUtterance was sent: given as one with its answer. */
    private final StringBuilder held = new StringBuilder();
    /** Speechmatics answered this socket's StartRecognition: audio may go. */
    private boolean started;
    /** The audio messages sent on this socket, and their bytes. */
    private int seq;
    private long socketBytes;
    private long bytes;

    SpeechmaticsListen(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, AudioFormat format,
            JsonObject start, SpeechToText.Listener listener) {
        super(connect, vertx, budget, "Speechmatics");
        this.format = format;
        this.start = start;
        this.listener = listener;
        connect();
    }

    /**
     * The StartRecognition message: the call's encoding and rate, the language and operating point, partials, the
     * delays, and the words to expect (a workflow's dictionary) as {@code additional_vocab}.
     */
    static JsonObject start(String operatingPoint, String language, AudioFormat format, List<String> keyterms) {
        JsonObject transcription = new JsonObject().put("language", language).put("operating_point", operatingPoint)
                .put("enable_partials", true).put("max_delay", MAX_DELAY)
                .put("conversation_config", new JsonObject().put("end_of_utterance_silence_trigger", SILENCE_TRIGGER));
        List<String> terms = keyterms.stream().map(String::strip).filter(t -> !t.isEmpty()).distinct()
                .limit(MAX_VOCAB).toList();
        if (!terms.isEmpty()) {
            JsonArray vocab = new JsonArray();
            terms.forEach(term -> vocab.add(new JsonObject().put("content", term)));
            transcription.put("additional_vocab", vocab);
        }
        return new JsonObject().put("message", "StartRecognition")
                .put("audio_format", new JsonObject().put("type", "raw")
                        .put("encoding", format.encoding() == AudioFormat.Encoding.MULAW ? "mulaw" : "pcm_s16le")
                        .put("sample_rate", format.sampleRate()))
                .put("transcription_config", transcription);
    }

    /** The socket opened: StartRecognition; the audio waits for RecognitionStarted. */
    @Override
    protected synchronized void opened(WebSocket ws) {
        started = false;
        seq = 0;
        socketBytes = 0;
        ws.writeTextMessage(start.encode());
    }

    @Override
    protected synchronized boolean dropped() {
        started = false;
        return true;
    }

    @Override
    protected boolean refusal(Short code) {
        return code != null && REFUSAL_CODES.contains(code.intValue());
    }

    @Override
    protected void failed(String message) {
        listener.failed(message);
    }

    @Override
    protected synchronized void message(String text) {
        JsonObject json;
        try {
            json = new JsonObject(text);
        } catch (DecodeException e) {
            return;
        }
        switch (json.getString("message", "")) {
            case "RecognitionStarted" -> recognitionStarted();
            case "AddPartialTranscript" -> {
                String partial = transcript(json);
                if (!closed && !partial.isEmpty()) {
                    listener.transcript(partial, false);
                }
            }
            case "AddTranscript" -> {
                if (!closed) {
                    addTranscript(json);
                }
            }
            case "EndOfUtterance" -> {
                if (!closed) {
                    settle(json);
                    if (unsettled.finalizing()) {
                        answer(); // what was finalized since the ForceEndOfUtterance is all there is
                    }
                }
            }
            case "Error" -> error(json);
            case "Warning" -> LOG.log(System.Logger.Level.INFO, "Speechmatics warning {0}: {1}",
                    json.getString("type"), json.getString("reason"));
            case "EndOfTranscript" -> {
                WebSocket ws = socket();
                if (ws != null) {
                    ws.close(); // ours: done; otherwise the session ended on its own: opened again
                }
            }
            default -> {
                // Info, AudioAdded
            }
        }
    }

    /** The session is ready: the audio not settled yet, with the ForceEndOfUtterance unanswered in its place. */
    private void recognitionStarted() {
        WebSocket ws = socket();
        if (ws == null || closed || started) {
            return;
        }
        started = true;
        unsettled.replay(chunk -> {
            ws.writeBinaryMessage(Buffer.buffer(chunk));
            seq++;
            socketBytes += chunk.length;
        }, () -> ws.writeTextMessage(forceEndOfUtterance()));
    }

    private void addTranscript(JsonObject json) {
        settle(json);
        String words = transcript(json);
        if (!unsettled.finalizing()) {
            if (!words.isEmpty()) {
                listener.transcript(words, true);
            }
            return;
        }
        if (!words.isEmpty()) {
            held.append(held.isEmpty() ? "" : " ").append(words);
        }
        if (Boolean.TRUE.equals(json.getBoolean("forced"))) {
            answer();
        }
    }

    /** The ForceEndOfUtterance is answered: the finals heard since, as one final (empty: nothing more). */
    private void answer() {
        String words = held.toString();
        held.setLength(0);
        unsettled.finalizeAnswered();
        listener.transcript(words, true);
    }

    /** A final (or an end of utterance) settles the socket's audio up to its end time. */
    private void settle(JsonObject json) {
        JsonObject metadata = json.getValue("metadata") instanceof JsonObject m ? m : new JsonObject();
        unsettled.settle(metadata.getValue("end_time") instanceof Number end
                ? unsettled.onSocket(Math.round(end.doubleValue() * format.bytes(1_000))) : -1);
    }

    private static String transcript(JsonObject json) {
        JsonObject metadata = json.getValue("metadata") instanceof JsonObject m ? m : new JsonObject();
        return metadata.getValue("transcript") instanceof String s ? s.strip() : "";
    }

    private void error(JsonObject json) {
        String type = json.getString("type", "unknown_error");
        String reason = json.getValue("reason") instanceof String s && !s.isBlank() ? s : "an error";
        if (REFUSALS.contains(type)) {
            giveUp("Speechmatics: " + reason + " (" + type + ")");
            return;
        }
        LOG.log(System.Logger.Level.INFO, "Speechmatics error {0}: {1}; opening the session again", type, reason);
        WebSocket ws = socket();
        if (ws != null) {
            ws.close(); // the session is over: a drop, opened again within the budget
        }
    }

    /** ForceEndOfUtterance at the socket's audio time (the seconds sent on it). */
    private String forceEndOfUtterance() {
        return new JsonObject().put("message", "ForceEndOfUtterance")
                .put("timestamp", socketBytes / (double) format.bytes(1_000)).encode();
    }

    @Override
    public synchronized void audio(byte[] frame) {
        if (closed) {
            return;
        }
        bytes += frame.length;
        unsettled.keep(frame, format.bytes(UNSETTLED_MS));
        if (started && socket() != null) {
            if (writeBinary(frame)) {
                seq++;
                socketBytes += frame.length;
            }
            unsettled.sent(frame.length);
        }
    }

    @Override
    public synchronized void finalizeNow() {
        if (closed) {
            return;
        }
        unsettled.finalizeAsked();
        WebSocket ws = socket();
        if (started && ws != null) {
            ws.writeTextMessage(forceEndOfUtterance());
        }
    }

    @Override
    public synchronized double seconds() {
        return bytes / (double) format.bytes(1_000);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        if (started) {
            shut(new JsonObject().put("message", "EndOfStream").put("last_seq_no", seq).encode(), 2_000);
        } else {
            shut(null, 0);
        }
    }
}
