package dev.voiceagent.adapters.media;

import dev.voiceagent.adapters.media.webrtc.SignalingSocket;
import dev.voiceagent.application.auth.AuthenticateUseCase;
import dev.voiceagent.application.auth.Credentials;
import dev.voiceagent.application.shared.PaymentRequiredException;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.AdmitBrowserMediaUseCase;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.Admitted;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.MediaUnavailable;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.StartVoiceSessionUseCase;
import dev.voiceagent.domain.apikey.ApiKeySecret;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The browsers' voice routes: the plain WebSocket ones ({@link BrowserVoiceSocket}: 16-bit PCM at 16 kHz both ways,
 * JSON events) and the reference dashboard's WebRTC signaling ({@link SignalingSocket}: the same JSON events, the
 * audio as Opus over DTLS-SRTP):
 * <ul>
 * <li>GET /api/v1/ws/voice/{workflow_id}/{run_id}?token=... for a browser run of the organization (an editor's test
 * call, a program's): the API key or the user's token in {@code token} (a browser's WebSocket cannot send headers),
 * or in X-API-Key / Authorization.</li>
 * <li>GET /api/v1/ws/public/voice/{session_token} for a voice widget's session (POST /public/embed/init): the session
 * token instead of a key, the page's Origin checked against the embed token's domains.</li>
 * <li>GET /api/v1/ws/signaling/{workflow_id}/{run_id}?token=... and /api/v1/ws/public/signaling/{session_token}: the
 * same callers, for WebRTC (the dashboard's Test Audio, the widget's voice mode).</li>
 * </ul>
 * The socket is upgraded only once the caller is known and the run claimed for this replica: no credentials 401, a
 * run not the organization's 404, not a browser run or already connected or completed 409, no credits left 402,
 * another page 403 ({@link MediaRefusal}, as on the carriers' route; the signaling routes say completed, connected
 * and no credits on the socket instead, as the reference does).
 */
@ApplicationScoped
public class BrowserVoiceRoute {

    private static final System.Logger LOG = System.getLogger(BrowserVoiceRoute.class.getName());
    public static final String PATH = "/api/v1/ws/voice/:workflow/:run";
    public static final String PUBLIC_PATH = "/api/v1/ws/public/voice/:session";
    public static final String SIGNALING_PATH = "/api/v1/ws/signaling/:workflow/:run";
    public static final String PUBLIC_SIGNALING_PATH = "/api/v1/ws/public/signaling/:session";

    /** What a route makes of its upgraded socket. */
    private interface Opening {
        void open(ServerWebSocket socket, Admitted admitted, Context context);

        /**
         * Whether a run that is completed or already connected, or an organization out of credits, is said on the
         * socket, as the reference's signaling does ({@code error} {error_type: workflow_run_already_completed,
         * workflow_run_already_active or insufficient_credits}: the dashboard then offers a new test or shows its
         * credits dialog), rather than refused with a 409 or 402 before the upgrade.
         */
        default boolean saysUnavailable() {
            return false;
        }
    }

    /** The signaling routes' opening. */
    private interface Signaling extends Opening {
        @Override
        default boolean saysUnavailable() {
            return true;
        }
    }

    private final AuthenticateUseCase authenticate;
    private final AdmitBrowserMediaUseCase admit;
    private final StartVoiceSessionUseCase start;
    private final Vertx vertx;
    private final SignalingSocket.Settings webrtc;

    /**
     * @param hosts the addresses browsers reach this replica's WebRTC peers at (its host candidates: a node's or a
     *        load balancer's public address in a cluster); by default every address of the machine's interfaces that
     *        is up (IPv4, loopback only when there is nothing else)
     * @param ports the UDP ports of the WebRTC peers, "first-last" (one per call); any port by default
     */
    public BrowserVoiceRoute(AuthenticateUseCase authenticate, AdmitBrowserMediaUseCase admit,
            StartVoiceSessionUseCase start, Vertx vertx,
            @ConfigProperty(name = "voiceagent.webrtc.hosts") Optional<List<String>> hosts,
            @ConfigProperty(name = "voiceagent.webrtc.ports") Optional<String> ports) {
        this.authenticate = authenticate;
        this.admit = admit;
        this.start = start;
        this.vertx = vertx;
        this.webrtc = webrtcSettings(hosts.orElse(List.of()), ports.orElse(""));
    }

    static SignalingSocket.Settings webrtcSettings(List<String> hosts, String ports) {
        List<InetAddress> addresses = new ArrayList<>();
        try {
            for (String host : hosts) {
                if (!host.isBlank()) {
                    addresses.add(InetAddress.getByName(host.strip()));
                }
            }
            if (addresses.isEmpty()) {
                InetAddress loopback = null;
                for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                    if (!nic.isUp()) {
                        continue;
                    }
                    for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                        if (address.getAddress().length != 4) {
                            continue;
                        }
                        if (address.isLoopbackAddress()) {
                            loopback = address;
                        } else {
                            addresses.add(address);
                        }
                    }
                }
                if (addresses.isEmpty()) {
                    addresses.add(loopback != null ? loopback : InetAddress.getLoopbackAddress());
                }
            }
        } catch (UnknownHostException | SocketException e) {
            throw new IllegalStateException("voiceagent.webrtc.hosts: " + e.getMessage(), e);
        }
        if (ports.isBlank()) {
            return new SignalingSocket.Settings(addresses, 0, 0);
        }
        String[] range = ports.strip().split("-");
        try {
            int first = Integer.parseInt(range[0].strip());
            int last = range.length > 1 ? Integer.parseInt(range[1].strip()) : first;
            if (first < 1 || last > 65_535 || last < first) {
                throw new NumberFormatException();
            }
            return new SignalingSocket.Settings(addresses, first, last);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("voiceagent.webrtc.ports: a range of UDP ports, e.g. 40000-40999");
        }
    }

    void routes(@Observes Router router) {
        Opening voice = (socket, a, context) -> new BrowserVoiceSocket(socket, a, start, vertx, context).listen();
        // the editor's offer brings its context variables; a widget's page is not trusted with them (as the reference)
        Signaling editor = (socket, a, context) -> new SignalingSocket(socket, a, admit, start, vertx, context, webrtc)
                .listen();
        Signaling widget = (socket, a, context) -> new SignalingSocket(socket, a, null, start, vertx, context, webrtc)
                .listen();
        router.get(PATH).order(-10).handler(rc -> organization(rc, voice));
        router.get(PUBLIC_PATH).order(-10).handler(rc -> embed(rc, voice));
        router.get(SIGNALING_PATH).order(-10).handler(rc -> organization(rc, editor));
        router.get(PUBLIC_SIGNALING_PATH).order(-10).handler(rc -> embed(rc, widget));
    }

    private void organization(RoutingContext rc, Opening opening) {
        long workflow;
        long run;
        try {
            workflow = Long.parseLong(rc.pathParam("workflow"));
            run = Long.parseLong(rc.pathParam("run"));
        } catch (NumberFormatException e) {
            new MediaRefusal(404, "Workflow run not found").send(rc);
            return;
        }
        Credentials credentials = credentials(rc.request());
        admitThen(rc, opening, () -> authenticate.authenticate(credentials)
                .chain(principal -> admit.admit(principal, workflow, run)));
    }

    private void embed(RoutingContext rc, Opening opening) {
        String session = rc.pathParam("session");
        String origin = rc.request().getHeader("Origin");
        admitThen(rc, opening, () -> admit.admitEmbed(session, origin));
    }

    /** The key or token: the query's {@code token} (an API key or a user's token), else the request's headers. */
    static Credentials credentials(HttpServerRequest request) {
        String token = request.getParam("token");
        if (token != null && !token.isBlank()) {
            return ApiKeySecret.looksLikeKey(token.strip()) ? new Credentials(token.strip(), null)
                    : new Credentials(null, "Bearer " + token.strip());
        }
        return new Credentials(request.getHeader("X-API-Key"), request.getHeader("Authorization"));
    }

    private void admitThen(RoutingContext rc, Opening opening, Supplier<Uni<Admitted>> admission) {
        HttpServerRequest request = rc.request();
        if (!"websocket".equals(String.valueOf(request.getHeader("Upgrade")).toLowerCase(Locale.ROOT))) {
            new MediaRefusal(400, "This address takes a WebSocket").send(rc);
            return;
        }
        request.pause();
        Context context = Vertx.currentContext();
        Uni<Admitted> admitted;
        try {
            admitted = admission.get();
        } catch (RuntimeException e) {
            admitted = Uni.createFrom().failure(e);
        }
        admitted.subscribe().with(
                a -> context.runOnContext(v -> request.toWebSocket().onSuccess(socket -> {
                    LOG.log(System.Logger.Level.DEBUG, "browser media of run {0} connected", a.runId());
                    opening.open(socket, a, Vertx.currentContext());
                }).onFailure(failure -> LOG.log(System.Logger.Level.WARNING, "browser media of run {0} not upgraded:"
                        + " {1}", a.runId(), failure.toString()))),
                failure -> context.runOnContext(v -> {
                    if (opening.saysUnavailable() && (failure instanceof MediaUnavailable
                            || failure instanceof PaymentRequiredException)) {
                        request.toWebSocket().onSuccess(socket -> SignalingSocket.refused(socket, failure));
                        return;
                    }
                    request.resume();
                    MediaRefusal.of(failure, "browser media").send(rc);
                }));
    }
}
