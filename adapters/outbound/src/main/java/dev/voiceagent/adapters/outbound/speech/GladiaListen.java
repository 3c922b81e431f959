package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.audio.Resampler;
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
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One call's Gladia live transcription (v2; docs.gladia.io/api-reference/v2/live/init and its real-time AsyncAPI,
 * Gladia's SDK github.com/gladiaio/sdk packages/sdk-js/src/v2/live/session.ts, pipecat's services/gladia/stt.py). A
 * session is asked for with {@code POST /v2/live} (the key in {@code x-gladia-key}): the call's audio as it is
 * ({@code wav/ulaw}, 8 bits at 8 kHz from a phone; {@code wav/pcm}, 16 bits at the call's rate from a browser,
 * resampled to 16 kHz when Gladia does not take that rate), one channel, the model, the language, the workflow's
 * dictionary as {@code realtime_processing.custom_vocabulary}, an {@link #ENDPOINTING} s endpointing, partials,
 * finals, speech events and acknowledgments. Its answer's {@code url} (a session token, no key) is the WebSocket: the
 * caller's audio goes as binary messages as the call's frames come, {@code stop_recording} at the end. No keep-alive:
 * the call's audio never pauses.
 *
 * <p>A {@code transcript} whose {@code is_final} is false is interim; a final one (Gladia's own endpointing ends each
 * utterance) is final. Gladia takes no request to finalize now, so when our voice activity hears the caller stop:
 * with no utterance open (no words since the last final, no speech since {@code speech_end}) an empty final says at
 * once that the recognizer has nothing more (the turn is answered now, not after a wait); otherwise the utterance's
 * final answers it when Gladia ends it, or, when the speech ends without words, an empty final at {@code speech_end}.
 *
 * <p>The socket outlives its connection ({@link ProviderSocket}), and so does the session, as Gladia's SDK does it:
 * a socket closed by anything but the end of the session (close codes 1000, 1001 and 4400-4499, which Gladia's SDK
 * does not resume) is opened again on the same session URL, and sent the audio Gladia has not acknowledged yet
 * ({@link UnsettledAudio}, settled by each {@code audio_chunk} acknowledgment's {@code byte_range}): the utterance said
 * across a drop goes on in the same session, and what Gladia already has is not sent twice. A session that ended is
 * started again with a new init request. An init request refused for good (a refused key, a configuration Gladia will
 * not take: any status but 408, 429 and 5xx) fails the stream at once with Gladia's words; a refused or failed one is
 * otherwise tried again within the budget. Usage counts the caller's audio once.
 */
final class GladiaListen extends ProviderSocket implements SpeechToText.Stream {

    private static final System.Logger LOG = System.getLogger(GladiaListen.class.getName());

    /** The most caller audio kept for a socket opened again (the audio Gladia did not acknowledge). */
    static final int UNSETTLED_MS = 15_000;
    /** Seconds of silence that end an utterance: shorter than our voice activity's stop, so its final is usually in. */
    static final double ENDPOINTING = 0.3;
    /** The PCM rates Gladia takes (of those a call can have); another is resampled to 16 kHz. */
    static final Set<Integer> PCM_RATES = Set.of(8_000, 16_000, 32_000, 48_000);
    static final String STOP_RECORDING = "{\"type\":\"stop_recording\"}";

    /** The sockets' source: the stream itself, once constructed (it asks for the session or resumes it). */
    private static final class Sessions implements Supplier<Future<WebSocket>> {
        private GladiaListen stream;

        @Override
        public Future<WebSocket> get() {
            return stream.session();
        }
    }

    private final Supplier<Future<GuardedHttp.Reply>> init;
    private final Function<String, Future<WebSocket>> open;
    private final SpeechToText.Listener listener;
    private final AudioFormat format;
    /** What goes on the wire: the call's format, or 16 kHz PCM when Gladia does not take the call's rate. */
    private final AudioFormat wire;
    private final Resampler resampler;
    /** The audio Gladia has not acknowledged (wire bytes), and where the session's audio began. */
    private final UnsettledAudio unsettled = new UnsettledAudio();
    private long sessionFrom;
    /** The session's WebSocket URL while it lasts; whether the next socket is the session's first. */
    private String url;
    private boolean fresh;
    private WebSocket current;
    /** Words heard since the last final; speech since the last speech_end; a final owed to a finalize. */
    private boolean words;
    private boolean speech;
    private boolean owed;
    private long bytes;

    /**
     * @param init the session's init request ({@code POST /v2/live} with its configuration)
     * @param open opens the WebSocket of a session URL
     */
    GladiaListen(Supplier<Future<GuardedHttp.Reply>> init, Function<String, Future<WebSocket>> open, Vertx vertx,
            RetryBudget budget, AudioFormat format, SpeechToText.Listener listener) {
        this(new Sessions(), init, open, vertx, budget, format, listener);
    }

    private GladiaListen(Sessions sessions, Supplier<Future<GuardedHttp.Reply>> init,
            Function<String, Future<WebSocket>> open, Vertx vertx, RetryBudget budget, AudioFormat format,
            SpeechToText.Listener listener) {
        super(sessions, vertx, budget, "Gladia");
        sessions.stream = this;
        this.init = init;
        this.open = open;
        this.format = format;
        this.wire = wire(format);
        this.resampler = wire.equals(format) ? null : new Resampler(format.sampleRate(), wire.sampleRate());
        this.listener = listener;
        connect();
    }

    /** The call's format when Gladia takes it, else 16 kHz PCM. */
    static AudioFormat wire(AudioFormat format) {
        return format.encoding() == AudioFormat.Encoding.MULAW || PCM_RATES.contains(format.sampleRate()) ? format
                : AudioFormat.PCM_16K;
    }

    /**
     * The init request's body: the audio on the wire, the model and language, the dictionary as custom vocabulary,
     * the endpointing, and the messages the stream reads (acknowledgments, to resume the session after a drop).
     */
    static JsonObject configuration(String model, String language, AudioFormat format, List<String> keyterms) {
        AudioFormat wire = wire(format);
        boolean mulaw = wire.encoding() == AudioFormat.Encoding.MULAW;
        JsonObject body = new JsonObject().put("encoding", mulaw ? "wav/ulaw" : "wav/pcm")
                .put("bit_depth", mulaw ? 8 : 16).put("sample_rate", wire.sampleRate()).put("channels", 1)
                .put("model", model).put("endpointing", ENDPOINTING);
        if (language != null && !language.isBlank()) {
            body.put("language_config", new JsonObject().put("languages", new JsonArray().add(language))
                    .put("code_switching", false));
        }
        List<String> terms = keyterms.stream().map(String::strip).filter(t -> !t.isEmpty()).distinct().toList();
        if (!terms.isEmpty()) {
            body.put("realtime_processing", new JsonObject().put("custom_vocabulary", true)
                    .put("custom_vocabulary_config", new JsonObject().put("vocabulary", new JsonArray(terms))));
        }
        return body.put("messages_config", new JsonObject().put("receive_partial_transcripts", true)
                .put("receive_final_transcripts", true).put("receive_speech_events", true)
                .put("receive_acknowledgments", true).put("receive_errors", true)
                .put("receive_lifecycle_events", false));
    }

    /** The next socket: the session's, resumed; or a new session's (one resumed that Gladia no longer has, too). */
    private synchronized Future<WebSocket> session() {
        if (url == null) {
            return init.get().compose(this::started);
        }
        return open.apply(url).recover(failure -> {
            if (failure instanceof GuardedHttp.SocketRefused refused && refused.status / 100 == 4) {
                forgetSession(); // its URL is no longer taken: a new session
                return init.get().compose(this::started);
            }
            return Future.failedFuture(failure);
        });
    }

    private synchronized Future<WebSocket> started(GuardedHttp.Reply reply) {
        if (reply.status() / 100 == 2) {
            JsonObject session;
            try {
                session = new JsonObject(reply.body());
            } catch (DecodeException e) {
                session = new JsonObject();
            }
            if (!(session.getValue("url") instanceof String sessionUrl) || sessionUrl.isBlank()) {
                return Future.failedFuture(new IllegalStateException("the session had no WebSocket URL"));
            }
            LOG.log(System.Logger.Level.DEBUG, "Gladia session {0}", session.getValue("id"));
            url = sessionUrl;
            fresh = true;
            return open.apply(sessionUrl);
        }
        String refusal = "the session was refused (" + reply.status() + said(reply.body()) + ")";
        if (!RetryBudget.transientStatus(reply.status())) {
            giveUp("Gladia: " + refusal);
        }
        return Future.failedFuture(new IllegalStateException(refusal));
    }

    /** Gladia's own words from an error body ({"message"}, {"error"}), or its start. */
    private static String said(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        try {
            JsonObject json = new JsonObject(body);
            for (String field : new String[] {"message", "error", "detail"}) {
                if (json.getValue(field) instanceof String s && !s.isBlank()) {
                    return ": " + s;
                }
            }
        } catch (DecodeException notJson) {
            // the body as it is
        }
        String flat = body.strip().replace('\n', ' ');
        return ": " + (flat.length() <= 300 ? flat : flat.substring(0, 300) + "...");
    }

    private void forgetSession() {
        url = null;
        words = false;
        speech = false;
    }

    /** A socket opened: the audio Gladia has not acknowledged first (on a new session, the session's audio begins). */
    @Override
    protected synchronized void opened(WebSocket ws) {
        current = ws;
        unsettled.replay(chunk -> ws.writeBinaryMessage(Buffer.buffer(chunk)), () -> { });
        if (fresh) {
            fresh = false;
            sessionFrom = unsettled.onSocket(0);
        }
    }

    /** Closed by the end of the session (as Gladia's SDK reads the codes): the next socket is a new session's. */
    @Override
    protected synchronized boolean dropped() {
        Short code = current == null ? null : current.closeStatusCode();
        if (code != null && (code == 1000 || code == 1001 || code >= 4400 && code <= 4499)) {
            forgetSession();
        }
        current = null;
        return true;
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
        JsonObject data = json.getValue("data") instanceof JsonObject d ? d : new JsonObject();
        switch (json.getString("type", "")) {
            case "audio_chunk" -> {
                if (Boolean.TRUE.equals(json.getBoolean("acknowledged"))
                        && data.getValue("byte_range") instanceof JsonArray range && range.size() == 2
                        && range.getValue(1) instanceof Number end) {
                    unsettled.settle(sessionFrom + end.longValue());
                } else if (json.getValue("error") != null) {
                    LOG.log(System.Logger.Level.INFO, "Gladia did not take audio: {0}", json.getValue("error"));
                }
            }
            case "transcript" -> {
                if (!closed) {
                    transcript(data);
                }
            }
            case "speech_start" -> speech = true;
            case "speech_end" -> {
                speech = false;
                if (owed && !words && !closed) {
                    owed = false;
                    listener.transcript("", true); // the speech ended without words: nothing more is coming
                }
            }
            case "error" -> LOG.log(System.Logger.Level.INFO, "Gladia error: {0}", text);
            default -> {
                // lifecycle and post-processing messages
            }
        }
    }

    private void transcript(JsonObject data) {
        JsonObject utterance = data.getValue("utterance") instanceof JsonObject u ? u : new JsonObject();
        String said = utterance.getValue("text") instanceof String s ? s.strip() : "";
        if (!Boolean.TRUE.equals(data.getBoolean("is_final"))) {
            if (!said.isEmpty()) {
                words = true;
                listener.transcript(said, false);
            }
            return;
        }
        words = false;
        if (!said.isEmpty() || owed) {
            owed = false;
            listener.transcript(said, true);
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
        unsettled.keep(chunk, wire.bytes(UNSETTLED_MS));
        if (socket() != null) {
            writeBinary(chunk);
            unsettled.sent(chunk.length);
        }
    }

    /**
     * The caller stopped: Gladia cannot be asked to finalize, so with nothing open the empty final says so now;
     * otherwise the utterance's final (or its speech's end) answers.
     */
    @Override
    public synchronized void finalizeNow() {
        if (closed) {
            return;
        }
        if (words || speech) {
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
        shut(STOP_RECORDING, 2_000);
    }
}
