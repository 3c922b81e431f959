package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.audio.Resampler;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One call's ElevenLabs realtime transcription ({@code /v1/speech-to-text/realtime}, the key in {@code xi-api-key};
 * the protocol of ElevenLabs' Python SDK, github.com/elevenlabs/elevenlabs-python src/elevenlabs/realtime, its
 * event reference, github.com/elevenlabs/skills speech-to-text/references/realtime-events.md, and pipecat's
 * services/elevenlabs/stt.py). The model ({@code scribe_v2_realtime}), the language (none for {@code auto}), the
 * call's audio as it is ({@code ulaw_8000} from a phone, {@code pcm_<rate>} from a browser, resampled to
 * {@code pcm_16000} when ElevenLabs does not take the rate), ElevenLabs' own voice activity committing each segment
 * ({@code commit_strategy=vad}, after {@link #VAD_SILENCE} s of silence), word timestamps, and the workflow's
 * dictionary as {@code keyterms} go in the address. The audio goes as {@code input_audio_chunk} messages (base64,
 * with the sample rate, never committing: ElevenLabs' voice activity does) as the call's frames come. No keep-alive:
 * the call's audio never pauses. The session has no end message: the socket is closed.
 *
 * <p>{@code partial_transcript} is interim; {@code committed_transcript} is final. ElevenLabs takes no commit in this
 * mode, so when our voice activity hears the caller stop: with no segment open (no words since the last commit) an
 * empty final says at once that the recognizer has nothing more (the turn is answered now, not after a wait);
 * otherwise the segment's commit answers, even empty.
 *
 * <p>The socket outlives its connection ({@link ProviderSocket}): the caller's audio no commit settled is kept
 * ({@link UnsettledAudio}; {@code committed_transcript_with_timestamps} settles it up to its last word's end; with no
 * segment open, only the last {@link #IDLE_MS} is kept, older audio being silence ElevenLabs already passed over) and
 * sent first on every socket opened again: a segment said across a drop is heard once, on the new socket. An error
 * message that refuses the session for good (the key, the quota, the terms, an input or request it will not take)
 * fails the stream at once with ElevenLabs' words; any other error ends the socket, which is opened again within the
 * budget. Usage counts the caller's audio once.
 */
final class ElevenLabsListen extends ProviderSocket implements SpeechToText.Stream {

    private static final System.Logger LOG = System.getLogger(ElevenLabsListen.class.getName());

    /** The most caller audio kept for a socket opened again (the audio no commit settled). */
    static final int UNSETTLED_MS = 15_000;
    /** The caller audio kept with no segment open. */
    static final int IDLE_MS = 3_000;
    /** Seconds of silence after which ElevenLabs commits a segment (it takes 0.3 to 3). */
    static final double VAD_SILENCE = 0.5;
    /** The PCM rates ElevenLabs takes (of those a call can have); another is resampled to 16 kHz. */
    static final Set<Integer> PCM_RATES = Set.of(8_000, 16_000, 24_000, 48_000);
    /** Error messages of a session refused for good (not worth another try). */
    static final Set<String> REFUSALS = Set.of("auth_error", "quota_exceeded", "unaccepted_terms",
            "unaccepted_terms_error", "input_error", "invalid_request");
    /** Error messages after which the session is over: opened again. */
    static final Set<String> ERRORS = Set.of("error", "transcriber_error", "rate_limited", "queue_overflow",
            "resource_exhausted", "session_time_limit_exceeded", "chunk_size_exceeded", "insufficient_audio_activity");

    private final SpeechToText.Listener listener;
    private final AudioFormat format;
    /** What goes on the wire: the call's format, or 16 kHz PCM when ElevenLabs does not take the call's rate. */
    private final AudioFormat wire;
    private final Resampler resampler;
    /** The caller's audio no commit settled (wire bytes). */
    private final UnsettledAudio unsettled = new UnsettledAudio();
    /** Words heard since the last commit; a final owed to a finalize. */
    private boolean open;
    private boolean owed;
    private long bytes;

    ElevenLabsListen(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, AudioFormat format,
            SpeechToText.Listener listener) {
        super(connect, vertx, budget, "ElevenLabs");
        this.format = format;
        this.wire = wire(format);
        this.resampler = wire.equals(format) ? null : new Resampler(format.sampleRate(), wire.sampleRate());
        this.listener = listener;
        connect();
    }

    /** The call's format when ElevenLabs takes it, else 16 kHz PCM. */
    static AudioFormat wire(AudioFormat format) {
        return format.encoding() == AudioFormat.Encoding.MULAW || PCM_RATES.contains(format.sampleRate()) ? format
                : AudioFormat.PCM_16K;
    }

    /**
     * The session's address: the model, the language (none for {@code auto}: ElevenLabs detects it), the audio on the
     * wire, ElevenLabs' voice activity committing, word timestamps, and the words to expect (a workflow's dictionary).
     */
    static String query(String model, String language, AudioFormat format, List<String> keyterms) {
        AudioFormat wire = wire(format);
        StringBuilder q = new StringBuilder("/v1/speech-to-text/realtime?model_id=").append(encode(model));
        if (language != null && !language.isBlank() && !"auto".equals(language)) {
            q.append("&language_code=").append(encode(language));
        }
        q.append("&audio_format=").append(wire.encoding() == AudioFormat.Encoding.MULAW ? "ulaw_8000"
                : "pcm_" + wire.sampleRate()).append("&commit_strategy=vad&vad_silence_threshold_secs=")
                .append(VAD_SILENCE).append("&include_timestamps=true");
        keyterms.stream().map(String::strip).filter(t -> !t.isEmpty()).distinct()
                .forEach(term -> q.append("&keyterms=").append(encode(term)));
        return q.toString();
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** The socket opened: the audio no commit settled first. */
    @Override
    protected synchronized void opened(WebSocket ws) {
        unsettled.replay(chunk -> ws.writeTextMessage(chunk(chunk)), () -> { });
    }

    /** The segment in progress stays open: its audio is sent again, so its words come again on the new socket. */
    @Override
    protected synchronized boolean dropped() {
        return true;
    }

    @Override
    protected void failed(String message) {
        listener.failed(message);
    }

    private String chunk(byte[] audio) {
        return new JsonObject().put("message_type", "input_audio_chunk")
                .put("audio_base_64", Base64.getEncoder().encodeToString(audio)).put("commit", false)
                .put("sample_rate", wire.sampleRate()).encode();
    }

    @Override
    protected synchronized void message(String text) {
        JsonObject json;
        try {
            json = new JsonObject(text);
        } catch (DecodeException e) {
            return;
        }
        String type = json.getString("message_type", "");
        String said = json.getValue("text") instanceof String s ? s.strip() : "";
        switch (type) {
            case "partial_transcript" -> {
                if (!closed && !said.isEmpty()) {
                    open = true;
                    listener.transcript(said, false);
                }
            }
            case "committed_transcript" -> {
                if (!closed) {
                    open = false;
                    if (!said.isEmpty() || owed) {
                        owed = false;
                        listener.transcript(said, true);
                    }
                }
            }
            case "committed_transcript_with_timestamps" -> settle(json);
            case "session_started" -> LOG.log(System.Logger.Level.DEBUG, "ElevenLabs session {0}",
                    json.getValue("session_id"));
            case "commit_throttled" -> LOG.log(System.Logger.Level.INFO, "ElevenLabs: {0}", json.getValue("error"));
            default -> {
                if (REFUSALS.contains(type) || ERRORS.contains(type)) {
                    error(type, json);
                }
            }
        }
    }

    /** A commit's words settle the socket's audio up to the last one's end. */
    private void settle(JsonObject json) {
        JsonArray words = json.getValue("words") instanceof JsonArray w ? w : new JsonArray();
        for (int i = words.size() - 1; i >= 0; i--) {
            if (words.getValue(i) instanceof JsonObject word && !"spacing".equals(word.getString("type"))
                    && word.getValue("end") instanceof Number end) {
                unsettled.settle(unsettled.onSocket(Math.round(end.doubleValue() * wire.bytes(1_000))));
                return;
            }
        }
    }

    private void error(String type, JsonObject json) {
        String error = json.getValue("error") instanceof String s && !s.isBlank() ? s : type;
        if (REFUSALS.contains(type)) {
            giveUp("ElevenLabs: " + error + " (" + type + ")");
            return;
        }
        LOG.log(System.Logger.Level.INFO, "ElevenLabs {0}: {1}; opening the session again", type, error);
        WebSocket ws = socket();
        if (ws != null) {
            ws.close(); // the session is over: a drop, opened again within the budget
        }
    }

    @Override
    public synchronized void audio(byte[] frame) {
        if (closed) {
            return;
        }
        bytes += frame.length;
        byte[] chunk = resampler == null ? frame : Pcm16.bytes(resampler.process(Pcm16.samples(frame)));
        if (chunk.length == 0) {
            return;
        }
        unsettled.keep(chunk, wire.bytes(open ? UNSETTLED_MS : IDLE_MS));
        WebSocket ws = socket();
        if (ws != null) {
            if (!ws.writeQueueFull()) {
                ws.writeTextMessage(chunk(chunk));
            }
            unsettled.sent(chunk.length);
        }
    }

    /**
     * The caller stopped: ElevenLabs cannot be asked to commit, so with no segment open the empty final says so now;
     * otherwise the segment's commit answers.
     */
    @Override
    public synchronized void finalizeNow() {
        if (closed) {
            return;
        }
        if (open) {
            owed = true;
        } else {
            owed = false;
            listener.transcript("", true);
        }
    }

    @Override
    public synchronized double seconds() {
        return bytes / (double) format.bytes(1_000);
    }

    @Override
    public synchronized void close() {
        shut(null, 0);
    }
}
