package dev.voiceagent.adapters.media;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.Admitted;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.StartVoiceSessionUseCase;
import dev.voiceagent.application.voice.runtime.port.in.MediaInput;
import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.domain.audio.AudioFormat;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * A browser's (or a program's) call over a plain WebSocket: 16-bit little-endian PCM, 16 kHz, mono, both ways, as
 * binary frames; JSON text frames {type, payload} for the rest.
 * <ul>
 * <li>Server to client: {@code ready} (the format) at once, the agent's audio (20 ms frames,
 * paced in real time by the session), {@code clear} when the caller barged in (drop what is queued and unplayed), the
 * call's real-time feedback events as they happen (rtf-user-transcription interim and final, rtf-bot-text,
 * rtf-bot-started-speaking / stopped-speaking, rtf-node-transition, rtf-function-call-*, rtf-interruption,
 * rtf-latency-measured, rtf-pipeline-error ...: the run's log shape {type, timestamp, turn, payload}), and
 * {@code call-ended {reason}} before the socket closes.</li>
 * <li>Client to server: the caller's audio (any length; cut here into 20 ms frames), {@code dtmf {digit}},
 * {@code hangup}.</li>
 * </ul>
 * There is no carrier to say what was played: the client is taken to play the audio as it arrives, so a mark is
 * reached when the audio sent before it has had time to play (a clear returns the pending marks at once, as a
 * carrier does). Closing the socket hangs up.
 */
final class BrowserVoiceSocket implements MediaChannel {

    private static final System.Logger LOG = System.getLogger(BrowserVoiceSocket.class.getName());
    private static final JsonFactory JSON = new JsonFactory();
    static final AudioFormat FORMAT = AudioFormat.PCM_16K;
    private static final int FRAME_MS = 20;
    private static final int FRAME_BYTES = FORMAT.bytes(FRAME_MS);

    private final ServerWebSocket socket;
    private final Admitted admitted;
    private final StartVoiceSessionUseCase start;
    private final Vertx vertx;
    private final Context context;
    private final CallLoop loop;
    private final byte[] pending = new byte[FRAME_BYTES];
    private int pendingBytes;
    /** When the audio sent so far will have played (System.nanoTime), were it played as it arrived. */
    private long playedUntil;
    private final Deque<Mark> marks = new ArrayDeque<>();
    private MediaInput session;
    private boolean closed;

    /** A mark waiting for the audio before it to have played. */
    private static final class Mark {
        final String name;
        long timer;

        Mark(String name) {
            this.name = name;
        }
    }

    BrowserVoiceSocket(ServerWebSocket socket, Admitted admitted, StartVoiceSessionUseCase start, Vertx vertx,
            Context context) {
        this.socket = socket;
        this.admitted = admitted;
        this.start = start;
        this.vertx = vertx;
        this.context = context;
        this.loop = new VertxCallLoop(vertx, context);
    }

    void listen() {
        socket.binaryMessageHandler(this::audio);
        socket.textMessageHandler(this::control);
        socket.closeHandler(v -> {
            closed = true;
            marks.forEach(m -> vertx.cancelTimer(m.timer));
            marks.clear();
            if (session != null) {
                session.stopped();
            }
        });
        socket.exceptionHandler(e -> {
            String exceeded = MediaLimits.exceeded(e);
            if (exceeded == null || closed) {
                LOG.log(System.Logger.Level.DEBUG, "browser media of run {0}: {1}", admitted.runId(), e.toString());
                return;
            }
            LOG.log(System.Logger.Level.WARNING, "browser media of run {0}: {1}", admitted.runId(), exceeded);
            MediaInput broken = session;
            closed = true;
            socket.close((short) 1009, exceeded.startsWith("message") ? "message too big" : "frame too big");
            if (broken != null) {
                broken.broken("the media socket was closed: " + exceeded);
            }
        });
        send(new JsonObject().put("type", "ready").put("payload", new JsonObject().put("run_id", admitted.runId())
                .put("encoding", "pcm_s16le").put("sample_rate", FORMAT.sampleRate()).put("channels", 1)
                .put("frame_ms", FRAME_MS)).encode());
        start.start(admitted, this, loop).subscribe().with(
                s -> context.runOnContext(v -> {
                    session = s; // null when the call was refused: its refusal closed the socket with the reason
                    if (closed && s != null) {
                        s.stopped();
                    }
                }),
                failure -> context.runOnContext(v -> close("pipeline_error")));
    }

    /** The caller's audio, cut into whole 20 ms frames (an odd byte waits for its pair). */
    private void audio(Buffer data) {
        if (session == null) {
            return; // the first few milliseconds, before the session is up: nothing hears them yet
        }
        byte[] bytes = data.getBytes();
        int at = 0;
        while (at < bytes.length) {
            int n = Math.min(FRAME_BYTES - pendingBytes, bytes.length - at);
            System.arraycopy(bytes, at, pending, pendingBytes, n);
            pendingBytes += n;
            at += n;
            if (pendingBytes == FRAME_BYTES) {
                session.audio(pending.clone());
                pendingBytes = 0;
            }
        }
    }

    private void control(String text) {
        String type = null;
        String digit = null;
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if ("type".equals(field)) {
                    type = p.getText();
                } else if ("payload".equals(field) && value == JsonToken.START_OBJECT) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String name = p.currentName();
                        p.nextToken();
                        if ("digit".equals(name)) {
                            digit = p.getText();
                        } else {
                            p.skipChildren();
                        }
                    }
                } else {
                    p.skipChildren();
                }
            }
        } catch (IOException e) {
            send(error("unreadable message: not JSON"));
            return;
        }
        if (type == null || session == null) {
            return;
        }
        switch (type) {
            case "dtmf" -> {
                if (digit != null && digit.matches("[0-9*#A-D]")) {
                    session.dtmf(digit);
                }
            }
            case "hangup", "stop" -> session.stopped();
            default -> send(error("unknown message type: " + (type.length() > 40 ? type.substring(0, 40) : type)));
        }
    }

    private static String error(String message) {
        return new JsonObject().put("type", "error").put("payload", new JsonObject().put("message", message)
                .put("error_type", "bad_message")).encode();
    }

    // ---- MediaChannel ----

    @Override
    public AudioFormat format() {
        return FORMAT;
    }

    @Override
    public void play(byte[] frame) {
        long now = System.nanoTime();
        playedUntil = Math.max(now, playedUntil) + frame.length * 1_000_000_000L / FORMAT.bytes(1000);
        if (!closed) {
            socket.writeBinaryMessage(Buffer.buffer(frame));
        }
    }

    @Override
    public void mark(String name) {
        long waitMs = Math.max(1, (playedUntil - System.nanoTime()) / 1_000_000);
        Mark mark = new Mark(name);
        marks.addLast(mark);
        // this mark and any before it (timers of the same millisecond may fire in either order), in order
        mark.timer = vertx.setTimer(waitMs, t -> {
            if (!marks.contains(mark)) {
                return;
            }
            Mark reached;
            do {
                reached = marks.pollFirst();
                if (session != null) {
                    session.marked(reached.name);
                }
            } while (reached != mark);
        });
    }

    @Override
    public void clear() {
        playedUntil = System.nanoTime();
        Deque<Mark> cleared = new ArrayDeque<>(marks);
        marks.clear();
        cleared.forEach(m -> vertx.cancelTimer(m.timer));
        send("{\"type\":\"clear\"}");
        // as a carrier: the cleared audio's marks come back at once, after this call returns
        context.runOnContext(v -> cleared.forEach(m -> {
            if (session != null) {
                session.marked(m.name);
            }
        }));
    }

    @Override
    public void feedback(Map<String, Object> event) {
        send(new JsonObject(event).encode());
    }

    @Override
    public void close(String reason) {
        if (!closed) {
            send(new JsonObject().put("type", "call-ended").put("payload", new JsonObject().put("reason", reason))
                    .encode());
            closed = true;
            LOG.log(System.Logger.Level.DEBUG, "browser media of run {0} closed: {1}", admitted.runId(), reason);
            socket.close((short) 1000, reason.length() > 120 ? reason.substring(0, 120) : reason);
        }
    }

    private void send(String text) {
        if (!closed) {
            socket.writeTextMessage(text);
        }
    }
}
