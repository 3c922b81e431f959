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
import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One call's AssemblyAI streaming transcription (v3, {@code /v3/ws}): the key in the {@code Authorization} header, the
 * {@code speech_model} the configuration names (AssemblyAI has no default; the catalog's is {@code u3-rt-pro}), the
 * caller's audio in its own encoding ({@code pcm_mulaw} at 8 kHz from a phone, as it is; {@code pcm_s16le} from a
 * browser), as binary messages of {@link #CHUNK_MS} ms (AssemblyAI takes 50 to 1000 ms a message, the call's frames
 * are 20 ms), {@code ForceEndpoint} when our voice activity hears the caller stop, {@code Terminate} at the end. The
 * workflow's dictionary goes as {@code keyterms_prompt} (at most {@link #MAX_KEYTERMS} terms of at most
 * {@link #MAX_KEYTERM_CHARS} characters: AssemblyAI refuses the session otherwise). No KeepAlive: the call's audio
 * never pauses, and AssemblyAI closes an idle session only when asked to ({@code inactivity_timeout}).
 *
 * <p>A {@code Turn} whose {@code end_of_turn} is false is interim (its words, those not final yet included, so a
 * barge-in is heard early); one whose {@code end_of_turn} is true is the turn's final, passed on once per
 * {@code turn_order}. The Universal-Streaming models are asked for formatted finals ({@code format_turns}): their
 * unformatted end of turn comes first and its formatted copy shortly after; the formatted one is passed on, the
 * unformatted one only as an interim, unless the formatted one is not there within {@link #FORMAT_WAIT_MS} (or the
 * socket drops first): then the unformatted one is the final, and a formatted one coming later is dropped, so the
 * caller's turn never waits long for punctuation. Universal-3 Pro ({@code u3-rt-pro}) formats every end of turn
 * itself: each is passed on as it comes. An end of turn with no words is passed on only when it answers a
 * ForceEndpoint (the recognizer has nothing more: the turn can be answered now).
 *
 * <p>The socket outlives its connection ({@link ProviderSocket}), as Deepgram's does: the caller's audio no final has
 * settled is kept (at most {@link #UNSETTLED_MS}; between turns, with no speech reported since the last final, only
 * the last {@link #IDLE_MS}: AssemblyAI reports speech within a second, so older audio is silence it already passed
 * over, and re-sending it would only be a burst faster than real time, which AssemblyAI closes a session for), and
 * every socket is sent that audio first, then the ForceEndpoint that no final followed yet. A final settles the audio
 * up to its last word's end. A session closed because the audio came faster than real time (3007) is opened again
 * without that backlog. A close for a refused key or account (1008) or for parameters or messages AssemblyAI will not
 * take (3006) is a refusal: the stream fails at once with AssemblyAI's words, not opened again. Usage counts the
 * caller's audio once (AssemblyAI bills the session's open time: {@code Terminate} ends it at once).
 */
final class AssemblyAiListen extends ProviderSocket implements SpeechToText.Stream {

    private static final System.Logger LOG = System.getLogger(AssemblyAiListen.class.getName());

    /** The most caller audio kept for a socket opened again (the audio no final settled). */
    static final int UNSETTLED_MS = 15_000;
    /** The caller audio kept between turns (no speech reported since the last final). */
    static final int IDLE_MS = 3_000;
    /** The audio of one binary message: within AssemblyAI's 50-1000 ms, five of the call's 20 ms frames. */
    static final int CHUNK_MS = 100;
    /** The shortest message AssemblyAI takes: less than this waits for the next frames. */
    static final int MIN_CHUNK_MS = 50;
    /** How long an unformatted end of turn waits for its formatted copy before it is the final. */
    static final long FORMAT_WAIT_MS = 300;
    static final int MAX_KEYTERMS = 100;
    static final int MAX_KEYTERM_CHARS = 50;
    static final String FORCE_ENDPOINT = "{\"type\":\"ForceEndpoint\"}";
    static final String TERMINATE = "{\"type\":\"Terminate\"}";
    /** Close (and Error) codes of a session refused for good: the key or account (1008), a bad parameter (3006). */
    static final Set<Integer> REFUSALS = Set.of(1008, 3006);
    /** Error code of audio sent faster than real time, or in messages out of the 50-1000 ms range. */
    static final int AUDIO_RATE = 3007;

    private final SpeechToText.Listener listener;
    private final AudioFormat format;
    private final Vertx vertx;
    private final boolean formatTurns;
    private final long formatWaitMs;
    /** The call's frames not yet a whole message. */
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    /** The caller's audio not settled yet (as sent), and the ForceEndpoint sent that no final followed yet. */
    private final UnsettledAudio unsettled = new UnsettledAudio();
    private long bytes;
    /** Speech reported (SpeechStarted, a partial) since the last final: the turn's audio is kept whole. */
    private boolean turnOpen;
    /** The last turn_order whose final was passed on (this socket's: each socket counts from 0). */
    private int given = -1;
    /** An unformatted end of turn waiting for its formatted copy: its turn_order (-1: none), text and timer. */
    private int heldTurn = -1;
    private String held;
    private long heldTimer = -1;
    /** AssemblyAI said the audio came too fast: the socket opened again is not sent the backlog. */
    private boolean tooFast;

    AssemblyAiListen(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, AudioFormat format,
            SpeechToText.Listener listener, String model) {
        this(connect, vertx, budget, format, listener, model, FORMAT_WAIT_MS);
    }

    AssemblyAiListen(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, AudioFormat format,
            SpeechToText.Listener listener, String model, long formatWaitMs) {
        super(connect, vertx, budget, "AssemblyAI");
        this.vertx = vertx;
        this.format = format;
        this.listener = listener;
        this.formatTurns = formatsTurns(model);
        this.formatWaitMs = formatWaitMs;
        connect();
    }

    /** Only the Universal-Streaming models format on request; Universal-3 Pro and later always do. */
    static boolean formatsTurns(String model) {
        return model.startsWith("universal-streaming");
    }

    /**
     * The session's address: the model, the call's encoding and rate, formatted finals where they must be asked for,
     * and the words to expect (a workflow's dictionary) as a JSON list.
     */
    static String query(String model, AudioFormat format, List<String> keyterms) {
        StringBuilder q = new StringBuilder("/v3/ws?speech_model=").append(URLEncoder.encode(model,
                StandardCharsets.UTF_8)).append("&sample_rate=").append(format.sampleRate())
                .append("&encoding=").append(format.encoding() == AudioFormat.Encoding.MULAW ? "pcm_mulaw"
                        : "pcm_s16le");
        if (formatsTurns(model)) {
            q.append("&format_turns=true");
        }
        List<String> terms = keyterms.stream().map(String::strip)
                .filter(t -> !t.isEmpty() && t.length() <= MAX_KEYTERM_CHARS).distinct().limit(MAX_KEYTERMS).toList();
        if (!terms.isEmpty()) {
            q.append("&keyterms_prompt=").append(URLEncoder.encode(new JsonArray(new ArrayList<>(terms)).encode(),
                    StandardCharsets.UTF_8));
        }
        return q.toString();
    }

    /** The socket opened: the audio not settled yet first (the ForceEndpoint still unanswered in its place). */
    @Override
    protected synchronized void opened(WebSocket ws) {
        given = -1; // a new session counts its turns from 0
        unsettled.replay(chunk -> ws.writeBinaryMessage(Buffer.buffer(chunk)),
                () -> ws.writeTextMessage(FORCE_ENDPOINT));
    }

    @Override
    protected synchronized boolean dropped() {
        giveHeld(); // its formatted copy would have come on the old socket: the unformatted one is the turn's final
        if (tooFast) {
            tooFast = false;
            unsettled.clear(); // sent again it would come too fast again: the new socket hears the call from now on
        }
        return true;
    }

    @Override
    protected boolean refusal(Short code) {
        return code != null && REFUSALS.contains(code.intValue());
    }

    @Override
    protected synchronized void failed(String message) {
        cancelHeld();
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
        switch (json.getString("type", "")) {
            case "Turn" -> {
                if (!closed) {
                    turn(json);
                }
            }
            case "SpeechStarted" -> turnOpen = true;
            case "Begin" -> LOG.log(System.Logger.Level.DEBUG, "AssemblyAI session {0}", json.getValue("id"));
            case "Error" -> {
                int code = json.getValue("error_code") instanceof Number n ? n.intValue() : 0;
                String error = json.getValue("error") instanceof String s && !s.isBlank() ? s : "an error";
                if (REFUSALS.contains(code)) {
                    giveUp("AssemblyAI: " + error + " (" + code + ")");
                } else if (code == AUDIO_RATE) {
                    tooFast = true;
                }
                // any other error: the close that follows is a drop, the socket is opened again
            }
            case "Termination" -> {
                WebSocket ws = socket();
                if (closed && ws != null) {
                    ws.close(); // the Terminate we sent is done: no need to wait for the grace
                }
            }
            default -> {
                // whatever comes later
            }
        }
    }

    private void turn(JsonObject json) {
        int order = json.getValue("turn_order") instanceof Number n ? n.intValue() : given + 1;
        if (order <= given) {
            return; // the turn's final was passed on: this is its late formatted copy, or a repeat
        }
        if (heldTurn >= 0 && heldTurn < order) {
            giveHeld(); // a later turn began: the earlier one's formatted copy is not coming
        }
        boolean end = Boolean.TRUE.equals(json.getBoolean("end_of_turn"));
        String transcript = json.getValue("transcript") instanceof String s ? s.strip() : "";
        JsonArray words = json.getValue("words") instanceof JsonArray w ? w : new JsonArray();
        if (!end) {
            turnOpen = true;
            String so = words.isEmpty() ? transcript : words(words);
            if (!so.isEmpty()) {
                listener.transcript(so, false);
            }
            return;
        }
        turnOpen = false;
        unsettled.settle(end(words));
        if (!formatTurns || Boolean.TRUE.equals(json.getBoolean("turn_is_formatted"))) {
            give(order, transcript);
            return;
        }
        if (heldTurn == order) {
            return;
        }
        heldTurn = order;
        held = transcript;
        if (!transcript.isEmpty()) {
            listener.transcript(transcript, false);
        }
        heldTimer = vertx.setTimer(Math.max(1, formatWaitMs), t -> formatLate(order));
    }

    private static String words(JsonArray words) {
        StringBuilder said = new StringBuilder();
        for (Object word : words) {
            if (word instanceof JsonObject w && w.getValue("text") instanceof String t && !t.isBlank()) {
                said.append(said.isEmpty() ? "" : " ").append(t.strip());
            }
        }
        return said.toString();
    }

    /** Where a final's audio ends on the call's audio (its last word's end), or -1 when it has no words. */
    private long end(JsonArray words) {
        for (int i = words.size() - 1; i >= 0; i--) {
            if (words.getValue(i) instanceof JsonObject w && w.getValue("end") instanceof Number end) {
                return unsettled.onSocket(end.longValue() * format.bytes(1));
            }
        }
        return -1;
    }

    /** The turn's final, once: an empty one only when it answers a ForceEndpoint. */
    private void give(int order, String transcript) {
        if (heldTurn == order) {
            cancelHeld();
        }
        given = Math.max(given, order);
        boolean answers = unsettled.finalizing();
        unsettled.finalizeAnswered();
        if (!transcript.isEmpty() || answers) {
            listener.transcript(transcript, true);
        }
    }

    private synchronized void formatLate(int order) {
        if (heldTurn == order && !closed) {
            heldTimer = -1;
            giveHeld();
        }
    }

    /** The unformatted end of turn held for its formatted copy becomes the final now (if one is held). */
    private void giveHeld() {
        if (heldTurn >= 0) {
            int order = heldTurn;
            String transcript = held;
            cancelHeld();
            give(order, transcript);
        }
    }

    private void cancelHeld() {
        if (heldTimer >= 0) {
            vertx.cancelTimer(heldTimer);
            heldTimer = -1;
        }
        heldTurn = -1;
        held = null;
    }

    @Override
    public synchronized void audio(byte[] frame) {
        if (closed) {
            return;
        }
        bytes += frame.length;
        pending.writeBytes(frame);
        if (pending.size() >= format.bytes(CHUNK_MS)) {
            send();
        }
    }

    /** What is pending becomes one message: kept until settled, and sent while a socket is open. */
    private void send() {
        byte[] chunk = pending.toByteArray();
        pending.reset();
        // between turns only the last seconds: what a new socket need not hear again
        unsettled.keep(chunk, format.bytes(turnOpen ? UNSETTLED_MS : IDLE_MS));
        unsettled.forgetStaleFinalize();
        if (socket() != null) {
            writeBinary(chunk);
            unsettled.sent(chunk.length);
        }
    }

    @Override
    public synchronized void finalizeNow() {
        if (closed) {
            return;
        }
        if (pending.size() >= format.bytes(MIN_CHUNK_MS)) {
            send(); // the last of the caller's audio before the ForceEndpoint; less than 50 ms waits (it is silence)
        }
        unsettled.finalizeAsked();
        WebSocket ws = socket();
        if (ws != null) {
            ws.writeTextMessage(FORCE_ENDPOINT);
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
        if (pending.size() >= format.bytes(MIN_CHUNK_MS) && socket() != null) {
            send();
        }
        cancelHeld();
        shut(TERMINATE, 2_000);
    }
}
