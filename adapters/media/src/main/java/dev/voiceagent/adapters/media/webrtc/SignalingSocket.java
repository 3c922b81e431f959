package dev.voiceagent.adapters.media.webrtc;

import dev.voiceagent.adapters.media.VertxCallLoop;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.AdmitBrowserMediaUseCase;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.Admitted;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.MediaUnavailable;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.StartVoiceSessionUseCase;
import dev.voiceagent.application.voice.runtime.port.in.MediaInput;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.voice.TurnTaking;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The reference dashboard's signaling socket for one browser call over WebRTC, JSON {type, payload}:
 * <ul>
 * <li>The browser's {@code offer} {pc_id, sdp, type, call_context_vars} is answered at once with {@code answer}
 * {sdp, type, pc_id}, whose SDP holds all of this side's candidates (ICE-lite: nothing trickles from here); the
 * browser's {@code ice-candidate}s are accepted and not needed (its address is learnt from its checks);
 * {@code renegotiate} is refused (a new call instead).</li>
 * <li>From the server, once the peer is connected: the call's real-time feedback events as they happen (the run's log
 * shape {type, timestamp, turn, payload}: rtf-user-transcription, rtf-bot-text, rtf-bot-started-speaking ...),
 * {@code call-ended} {workflow_run_id, pc_id, reason} last, {@code error} {message, error_type} for what is
 * refused.</li>
 * </ul>
 * The call's session starts once the offer is answered, with the offer's {@code call_context_vars} added to the run's
 * initial context on the editor's route (the widget's public route ignores them, as the reference does): the agent and
 * its models load and the greeting is synthesized while the browser connects, its audio waiting in the peer until
 * DTLS is done. A peer not connected within {@value #CONNECT_SECONDS} s ends the call. The socket's event loop is the
 * call's loop; closing the socket hangs up.
 */
public final class SignalingSocket implements WebRtcPeer.Events {

    private static final System.Logger LOG = System.getLogger(SignalingSocket.class.getName());
    static final int CONNECT_SECONDS = 30;
    /** The disposition of a call whose browser left before its session started (the sessions' own for a hang-up). */
    static final String HUNG_UP = TurnTaking.USER_HANGUP;

    /** Where browsers reach this replica's WebRTC peers. */
    public static final class Settings {
        final List<InetAddress> hosts;
        final int[] ports;

        /**
         * @param hosts the addresses of this replica's host candidates (one, at least)
         * @param firstPort the first of the UDP ports to use, 0 for any
         * @param lastPort the last of them
         */
        public Settings(List<InetAddress> hosts, int firstPort, int lastPort) {
            if (hosts.isEmpty()) {
                throw new IllegalArgumentException("WebRTC needs one address at least for its candidates");
            }
            this.hosts = List.copyOf(hosts);
            this.ports = new int[] {firstPort, Math.max(firstPort, lastPort)};
        }
    }

    private final ServerWebSocket socket;
    private final Admitted admitted;
    /** The editor's route: the offer's call_context_vars are the run's. */
    private final AdmitBrowserMediaUseCase contextVariables;
    private final StartVoiceSessionUseCase start;
    private final Vertx vertx;
    private final Context context;
    private final WebRtcPeer peer;
    private final Duration connectTimeout;
    private boolean offered;
    /** The session was asked for: from then on it (or its refusal) ends the run. */
    private boolean starting;
    private boolean connected;
    private String pcId;
    private MediaInput session;
    private boolean closed;

    /**
     * @param contextVariables where the offer's call_context_vars go (the editor's route); null: they are ignored (the
     *        widget's public route)
     */
    public SignalingSocket(ServerWebSocket socket, Admitted admitted, AdmitBrowserMediaUseCase contextVariables,
            StartVoiceSessionUseCase start, Vertx vertx, Context context, Settings settings) {
        this(socket, admitted, contextVariables, start, vertx, context, settings, Duration.ofSeconds(CONNECT_SECONDS));
    }

    /** @param connectTimeout how long the peer has to connect from the socket's open */
    SignalingSocket(ServerWebSocket socket, Admitted admitted, AdmitBrowserMediaUseCase contextVariables,
            StartVoiceSessionUseCase start, Vertx vertx, Context context, Settings settings, Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
        this.socket = socket;
        this.admitted = admitted;
        this.contextVariables = contextVariables;
        this.start = start;
        this.vertx = vertx;
        this.context = context;
        this.peer = new WebRtcPeer(vertx, context, settings.hosts, settings.ports, this);
    }

    /**
     * A socket whose call cannot start, answered as the reference answers the dashboard: {@code error}
     * {error_type, message}, then closed. A run completed ({@code workflow_run_already_completed}: the dashboard
     * offers a new test) or connected elsewhere ({@code workflow_run_already_active}), an organization out of credits
     * ({@code insufficient_credits}: its credits dialog).
     */
    public static void refused(ServerWebSocket socket, Throwable why) {
        String type = why instanceof MediaUnavailable unavailable ? (unavailable.completed()
                ? "workflow_run_already_completed" : "workflow_run_already_active") : "insufficient_credits";
        String message = switch (type) {
            case "workflow_run_already_completed" ->
                    "This test run has already finished. Start a new test to call the agent again.";
            case "workflow_run_already_active" -> "Workflow run already has an active call";
            default -> why.getMessage();
        };
        socket.writeTextMessage(new JsonObject().put("type", "error").put("payload", new JsonObject()
                .put("error_type", type).put("message", message)).encode());
        socket.close((short) 1000, type);
    }

    public void listen() {
        socket.textMessageHandler(this::message);
        socket.closeHandler(v -> {
            if (!closed && !starting) {
                start.endUnstarted(admitted, HUNG_UP).subscribe().with(ok -> { }, f -> { });
            }
            closed = true;
            if (session != null) {
                session.stopped();
            }
            dispose();
        });
        socket.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "signaling of run {0}: {1}",
                admitted.runId(), e.toString()));
        vertx.setTimer(connectTimeout.toMillis(), t -> {
            if (!connected) {
                ended("webrtc_connection_failed");
            }
        });
    }

    /** The call's session, on the run with the offer's context variables. */
    private void startSession(Map<String, Object> variables) {
        Uni<Admitted> run = contextVariables == null || variables.isEmpty() ? Uni.createFrom().item(admitted)
                : contextVariables.withContextVariables(admitted, variables);
        starting = true;
        run.chain(a -> start.start(a, peer, new VertxCallLoop(vertx, context))).subscribe().with(
                s -> context.runOnContext(x -> {
                    session = s; // null when the call was refused: its refusal ended the call with the reason
                    if (closed && s != null) {
                        s.stopped();
                    }
                }),
                failure -> context.runOnContext(x -> {
                    if (failure instanceof DomainRuleViolation refused) {
                        // the variables were refused before the session: the run ends here
                        error(refused.getMessage(), "bad_offer");
                        starting = false;
                        if (closed) {
                            start.endUnstarted(admitted, "pipeline_error").subscribe().with(ok -> { }, f -> { });
                        }
                    }
                    closing("pipeline_error");
                }));
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
                // ICE-lite: the browser's address comes with its connectivity checks
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
        if (offered) {
            error("this call has its peer connection already", "renegotiation_unsupported");
            return;
        }
        Object vars = payload.getValue("call_context_vars");
        if (vars != null && !(vars instanceof JsonObject)) {
            error("call_context_vars: an object of variables", "bad_offer");
            return;
        }
        Map<String, Object> variables = vars == null ? Map.of() : ((JsonObject) vars).getMap();
        offered = true;
        pcId = payload.getValue("pc_id") instanceof String id ? id : "pc-" + admitted.runId();
        peer.answer(sdp).onComplete(answer -> {
            if (answer.failed()) {
                boolean refused = answer.cause() instanceof IllegalArgumentException;
                if (!refused) {
                    LOG.log(System.Logger.Level.WARNING, "webrtc peer of run {0} not set up: {1}", admitted.runId(),
                            answer.cause().toString());
                }
                error(refused ? "the offer was refused: " + answer.cause().getMessage()
                        : "the call could not be set up", refused ? "bad_offer" : "webrtc_unavailable");
                closing("pipeline_error");
                return;
            }
            if (closed) {
                dispose();
                return;
            }
            send(new JsonObject().put("type", "answer").put("payload", new JsonObject().put("sdp", answer.result())
                    .put("type", "answer").put("pc_id", pcId)));
            startSession(variables);
        });
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
        peer.dispose();
    }

    // ---- WebRtcPeer.Events (the call's loop) ----

    @Override
    public void connected() {
        connected = true;
        LOG.log(System.Logger.Level.DEBUG, "webrtc call of run {0} connected", admitted.runId());
    }

    @Override
    public void ended(String why) {
        if (closed) {
            return;
        }
        if (session != null) {
            session.stopped();
        }
        closing(why);
    }

    @Override
    public void audio(byte[] frame) {
        if (session != null) {
            session.audio(frame);
        }
    }

    @Override
    public void marked(String name) {
        if (session != null) {
            session.marked(name);
        }
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
        if (!starting) {
            start.endUnstarted(admitted, reason).subscribe().with(ok -> { }, f -> { });
        }
        closed = true;
        socket.close((short) 1000, reason.length() > 120 ? reason.substring(0, 120) : reason);
        dispose();
    }
}
