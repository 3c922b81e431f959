package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.domain.audio.AudioFormat;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * One call's Deepgram live transcription (v1/listen): the caller's audio as binary frames in its own encoding (μ-law 8
 * kHz from a phone, no transcoding), KeepAlive every 4 s (Deepgram closes a socket silent for 10 s), Finalize when our
 * voice activity hears the caller stop, CloseStream at the end. Results become interim and final transcripts. Audio
 * sent before the socket opened is held (at most {@link #HOLD_FRAMES} frames) and sent once it has.
 *
 * <p>Flux models (v2/listen, their own end-of-turn detection) in its semi-manual mode: Flux ends turns itself and
 * our voice activity's stop forces the end of the turn ({@code ForceEndTurn}) where Flux is not yet sure, whichever
 * comes first. With its early end of turn on ({@code eager_eot_threshold}), an {@code EagerEndOfTurn} is already the
 * turn's final transcript, so the answer starts before Flux is sure; if the caller goes on ({@code TurnResumed}) our
 * voice activity hears it and cuts the answer, as any barge-in. The {@code EndOfTurn} that confirms an eager end
 * repeats its transcript and is not passed on; a turn's later finals pass on only the words after those already
 * given. {@code Update} and {@code StartOfTurn} transcripts are interim. (The audio never pauses: no KeepAlive.)
 */
final class DeepgramListen implements SpeechToText.Stream {

    private static final System.Logger LOG = System.getLogger(DeepgramListen.class.getName());
    static final int HOLD_FRAMES = 250;
    static final long KEEP_ALIVE_MS = 4_000;
    static final String KEEP_ALIVE = "{\"type\":\"KeepAlive\"}";
    static final String FINALIZE = "{\"type\":\"Finalize\"}";
    static final String CLOSE = "{\"type\":\"CloseStream\"}";
    static final String FORCE_END_TURN = "{\"type\":\"ForceEndTurn\"}";
    /** Flux's early end of turn: confident enough to start answering (its documented range is 0.3-0.9). */
    static final String EAGER_EOT_THRESHOLD = "0.5";

    private final SpeechToText.Listener listener;
    private final AudioFormat format;
    private final Vertx vertx;
    private final Deque<Object> held = new ArrayDeque<>();
    private WebSocket socket;
    private long keepAlive = -1;
    private long bytes;
    private boolean closed;
    private final boolean flux;
    private int fluxTurn = -1;
    private String fluxGiven = "";

    DeepgramListen(Vertx vertx, AudioFormat format, SpeechToText.Listener listener) {
        this(vertx, format, listener, false);
    }

    DeepgramListen(Vertx vertx, AudioFormat format, SpeechToText.Listener listener, boolean flux) {
        this.vertx = vertx;
        this.format = format;
        this.listener = listener;
        this.flux = flux;
    }

    /** A Flux model's address: v2/listen in the call's encoding, end-of-turn at Flux's default confidence. */
    static String fluxQuery(String model, String language, AudioFormat format) {
        StringBuilder q = new StringBuilder("/v2/listen?model=").append(model)
                .append("&encoding=").append(format.encoding() == AudioFormat.Encoding.MULAW ? "mulaw" : "linear16")
                .append("&sample_rate=").append(format.sampleRate()).append("&eot_threshold=0.7")
                .append("&eager_eot_threshold=").append(EAGER_EOT_THRESHOLD);
        if (model.endsWith("-multi") && language != null && !language.isBlank() && !"multi".equals(language)) {
            q.append("&language_hint=").append(URLEncoder.encode(language, StandardCharsets.UTF_8));
        }
        return q.toString();
    }

    static String query(String model, String language, AudioFormat format) {
        StringBuilder q = new StringBuilder("/v1/listen?model=").append(model)
                .append("&encoding=").append(format.encoding() == AudioFormat.Encoding.MULAW ? "mulaw" : "linear16")
                .append("&sample_rate=").append(format.sampleRate())
                .append("&channels=1&interim_results=true&punctuate=true&endpointing=300");
        if (language != null && !language.isBlank()) {
            q.append("&language=").append(URLEncoder.encode(language, StandardCharsets.UTF_8));
        }
        return q.toString();
    }

    synchronized void connected(WebSocket ws) {
        if (closed) {
            ws.close();
            return;
        }
        socket = ws;
        ws.textMessageHandler(this::message);
        ws.closeHandler(v -> {
            if (!closed) {
                closed = true;
                listener.failed("Deepgram closed the stream (" + ws.closeStatusCode() + " " + ws.closeReason() + ")");
            }
            vertx.cancelTimer(keepAlive);
        });
        ws.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "deepgram stream: {0}", e.toString()));
        while (!held.isEmpty()) {
            Object next = held.pollFirst();
            if (next instanceof byte[] frame) {
                ws.writeBinaryMessage(Buffer.buffer(frame));
            } else {
                ws.writeTextMessage((String) next);
            }
        }
        if (!flux) {
            keepAlive = vertx.setPeriodic(KEEP_ALIVE_MS, t -> send(KEEP_ALIVE));
        }
    }

    synchronized void refused(String message) {
        if (!closed) {
            closed = true;
            listener.failed(message);
        }
    }

    private void message(String text) {
        JsonObject json;
        try {
            json = new JsonObject(text);
        } catch (DecodeException e) {
            return;
        }
        if (flux) {
            flux(json);
            return;
        }
        if (!"Results".equals(json.getString("type"))) {
            return; // Metadata, SpeechStarted, UtteranceEnd: our own voice activity decides turns
        }
        JsonObject channel = json.getJsonObject("channel");
        JsonArray alternatives = channel == null ? null : channel.getJsonArray("alternatives");
        String transcript = alternatives == null || alternatives.isEmpty() ? ""
                : alternatives.getJsonObject(0).getString("transcript", "");
        if (!transcript.isBlank()) {
            listener.transcript(transcript, Boolean.TRUE.equals(json.getBoolean("is_final")));
        }
    }

    private void flux(JsonObject json) {
        switch (json.getString("type", "")) {
            case "TurnInfo" -> {
                String transcript = json.getString("transcript", "").strip();
                String event = json.getString("event", "");
                int turn = json.getInteger("turn_index", -1);
                if (transcript.isEmpty() || "TurnResumed".equals(event)) {
                    return;
                }
                if (!"EndOfTurn".equals(event) && !"EagerEndOfTurn".equals(event)) {
                    listener.transcript(transcript, false);
                    return;
                }
                String fresh = freshWords(turn, transcript);
                if (!fresh.isEmpty()) {
                    listener.transcript(fresh, true);
                }
            }
            case "Error" -> refused("Deepgram Flux: " + json.getString("description", json.getString("code",
                    "an error")));
            default -> {
                // Connected, ConfigureSuccess / ConfigureFailure
            }
        }
    }

    /** The words of a Flux turn's final not given already in an earlier final of the same turn. */
    synchronized String freshWords(int turn, String transcript) {
        if (turn != fluxTurn) {
            fluxTurn = turn;
            fluxGiven = "";
        }
        String fresh = transcript.startsWith(fluxGiven) ? transcript.substring(fluxGiven.length()).strip() : transcript;
        fluxGiven = transcript;
        return fresh;
    }

    @Override
    public synchronized void audio(byte[] frame) {
        if (closed) {
            return;
        }
        bytes += frame.length;
        if (socket == null) {
            if (held.size() >= HOLD_FRAMES) {
                held.pollFirst();
            }
            held.addLast(frame);
        } else if (!socket.writeQueueFull()) {
            socket.writeBinaryMessage(Buffer.buffer(frame));
        }
    }

    @Override
    public void finalizeNow() {
        send(flux ? FORCE_END_TURN : FINALIZE);
    }

    private synchronized void send(String text) {
        if (closed) {
            return;
        }
        if (socket == null) {
            held.addLast(text);
        } else {
            socket.writeTextMessage(text);
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
        if (socket != null) {
            socket.writeTextMessage(CLOSE);
            WebSocket ws = socket;
            vertx.setTimer(2_000, t -> ws.close());
        }
        closed = true;
        vertx.cancelTimer(keepAlive);
    }
}
