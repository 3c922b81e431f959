package dev.voiceagent.adapters.webrtc;

import dev.voiceagent.application.voice.runtime.CallLoop;
import dev.voiceagent.application.voice.runtime.CallMediaUseCases.Admitted;
import dev.voiceagent.application.voice.runtime.CallMediaUseCases.StartVoiceSessionUseCase;
import dev.voiceagent.application.voice.runtime.MediaInput;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The reference dashboard's signaling socket for one browser call, JSON {type, payload}: the browser's {@code offer}
 * {pc_id, sdp, type} is answered with {@code answer} {sdp, type, pc_id} at once, this side's candidates trickling after
 * it as {@code ice-candidate} {pc_id, candidate {candidate, sdpMid, sdpMLineIndex}}; the browser's are added (kept until
 * the answer when they come first); the call's real-time feedback events follow as they happen, {@code call-ended}
 * {workflow_run_id, pc_id, reason} last; {@code error} {message, error_type} for what is refused. The call's session
 * starts once the peer is connected; the socket's event loop is the call's loop.
 */
final class SignalingSocket implements WebRtcCall.Events, CallLoop {

    private static final System.Logger LOG = System.getLogger(SignalingSocket.class.getName());

    private final ServerWebSocket socket;
    private final Admitted admitted;
    private final StartVoiceSessionUseCase start;
    private final Vertx vertx;
    private final Context context;
    private final List<JsonObject> early = new ArrayList<>();
    /** This side's candidates found before the answer went out: sent right after it. */
    private final List<JsonObject> ours = new ArrayList<>();
    private WebRtcCall call;
    private String pcId;
    private boolean answered;
    private MediaInput session;
    private boolean closed;

    SignalingSocket(ServerWebSocket socket, Admitted admitted, StartVoiceSessionUseCase start, Vertx vertx,
            Context context) {
        this.socket = socket;
        this.admitted = admitted;
        this.start = start;
        this.vertx = vertx;
        this.context = context;
    }

    void listen() {
        socket.textMessageHandler(this::message);
        socket.closeHandler(v -> {
            closed = true;
            if (session != null) {
                session.stopped();
            }
            dispose();
        });
        socket.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "signaling of run {0}: {1}",
                admitted.runId(), e.toString()));
    }

    private void message(String text) {
        JsonObject message;
        try {
            message = new JsonObject(text);
        } catch (RuntimeException e) {
            error("unreadable message: not JSON", "bad_message");
            return;
        }
        JsonObject payload = message.getValue("payload") instanceof JsonObject p ? p : new JsonObject();
        switch (String.valueOf(message.getValue("type"))) {
            case "offer" -> offer(payload);
            case "ice-candidate" -> {
                if (!answered) {
                    early.add(payload);
                } else {
                    candidate(payload);
                }
            }
            case "renegotiate" -> error("renegotiation is not supported: start a new call", "renegotiation_unsupported");
            default -> error("unknown message type", "bad_message");
        }
    }

    private void offer(JsonObject payload) {
        String sdp = payload.getValue("sdp") instanceof String s ? s : null;
        if (sdp == null || !"offer".equals(payload.getValue("type"))) {
            error("an offer needs its sdp and type offer", "bad_offer");
            return;
        }
        if (call != null) {
            error("this call has its peer connection already", "renegotiation_unsupported");
            return;
        }
        pcId = payload.getValue("pc_id") instanceof String id ? id : "pc-" + admitted.runId();
        vertx.<WebRtcCall>executeBlocking(() -> new WebRtcCall(this), false).onComplete(created -> {
            if (created.failed()) {
                LOG.log(System.Logger.Level.WARNING, "webrtc peer of run {0} not created: {1}", admitted.runId(),
                        created.cause().toString());
                error("the call could not be set up", "webrtc_unavailable");
                closing("pipeline_error");
                return;
            }
            call = created.result();
            if (closed) {
                dispose();
                return;
            }
            call.answer(sdp).whenComplete((answer, failure) -> context.runOnContext(v -> {
                if (failure != null) {
                    error("the offer was refused: " + failure.getMessage(), "bad_offer");
                    closing("pipeline_error");
                    return;
                }
                answered = true;
                send(new JsonObject().put("type", "answer").put("payload", new JsonObject().put("sdp", answer)
                        .put("type", "answer").put("pc_id", pcId)));
                early.forEach(this::candidate);
                early.clear();
                ours.forEach(this::send);
                ours.clear();
            }));
        });
    }

    private void candidate(JsonObject payload) {
        if (call != null && payload.getValue("candidate") instanceof JsonObject c
                && c.getValue("candidate") instanceof String line && !line.isBlank()) {
            call.candidate(c.getValue("sdpMid") instanceof String mid ? mid : "0",
                    c.getValue("sdpMLineIndex") instanceof Number index ? index.intValue() : 0, line);
        }
    }

    private void error(String message, String type) {
        send(new JsonObject().put("type", "error").put("payload", new JsonObject().put("message", message)
                .put("error_type", type)));
    }

    private void send(JsonObject message) {
        if (!closed) {
            socket.writeTextMessage(message.encode());
        }
    }

    private void dispose() {
        WebRtcCall ending = call;
        if (ending != null) {
            vertx.executeBlocking(() -> {
                ending.dispose();
                return null;
            }, false);
        }
    }

    // ---- WebRtcCall.Events: from libwebrtc's threads, onto the call's loop ----

    @Override
    public void connected() {
        context.runOnContext(v -> {
            if (closed || session != null) {
                return;
            }
            LOG.log(System.Logger.Level.DEBUG, "webrtc call of run {0} connected", admitted.runId());
            start.start(admitted, call, this).subscribe().with(
                    s -> context.runOnContext(x -> {
                        session = s;
                        if (closed) {
                            s.stopped();
                        }
                    }),
                    failure -> context.runOnContext(x -> closing("pipeline_error")));
        });
    }

    @Override
    public void ended(String why) {
        context.runOnContext(v -> {
            if (session != null) {
                session.stopped();
            } else {
                closing(why);
            }
        });
    }

    @Override
    public void audio(byte[] frame) {
        context.runOnContext(v -> {
            if (session != null) {
                session.audio(frame);
            }
        });
    }

    @Override
    public void marked(String name) {
        context.runOnContext(v -> {
            if (session != null) {
                session.marked(name);
            }
        });
    }

    @Override
    public void candidate(String sdpMid, int sdpMLineIndex, String candidate) {
        context.runOnContext(v -> {
            JsonObject message = new JsonObject().put("type", "ice-candidate").put("payload", new JsonObject()
                    .put("pc_id", pcId).put("candidate", new JsonObject().put("candidate", candidate)
                            .put("sdpMid", sdpMid).put("sdpMLineIndex", sdpMLineIndex)));
            if (answered) {
                send(message);
            } else {
                ours.add(message);
            }
        });
    }

    @Override
    public void feedback(Map<String, Object> event) {
        send(new JsonObject(event));
    }

    @Override
    public void closing(String reason) {
        if (closed) {
            return;
        }
        send(new JsonObject().put("type", "call-ended").put("payload", new JsonObject()
                .put("workflow_run_id", admitted.runId()).put("pc_id", pcId).put("reason", reason)));
        closed = true;
        socket.close((short) 1000, reason.length() > 120 ? reason.substring(0, 120) : reason);
        dispose();
    }

    // ---- CallLoop ----

    @Override
    public Instant now() {
        return Instant.now();
    }

    @Override
    public void execute(Runnable task) {
        context.runOnContext(v -> task.run());
    }

    @Override
    public AutoCloseable every(Duration period, Runnable task) {
        long[] id = {0};
        context.runOnContext(v -> id[0] = vertx.setPeriodic(period.toMillis(), t -> task.run()));
        return () -> context.runOnContext(v -> vertx.cancelTimer(id[0]));
    }
}
