package dev.voiceagent.adapters.media;

import dev.voiceagent.adapters.media.carrier.CarrierDialects;
import dev.voiceagent.adapters.media.webrtc.SignalingSocket;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.Admitted;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.StartVoiceSessionUseCase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.net.InetAddress;
import java.util.List;

/**
 * The media sockets of a replica's rehearsed calls (its warm-up): a server of its own on the loopback, on a port the
 * system picks, whose sockets are exactly the public routes' ({@link CarrierMediaSocket}: the carrier's dialect known
 * from its start message; {@link BrowserVoiceSocket}: a browser's 16 kHz PCM; {@link SignalingSocket}: a browser's
 * WebRTC, its peer's candidates on the loopback), each started by the rehearsal's sessions
 * rather than an admitted run. It is not on the public router, so nothing outside the process reaches it, and it is
 * closed when the rehearsal ends.
 */
public final class MediaRehearsal {

    private static final System.Logger LOG = System.getLogger(MediaRehearsal.class.getName());
    private static final String CARRIER = "/rehearsal/carrier/";
    private static final String BROWSER = "/rehearsal/browser/";
    private static final String WEBRTC = "/rehearsal/webrtc/";
    /** WebRTC's candidates on the loopback, on ports the system picks (not the replica's configured range). */
    private static final SignalingSocket.Settings LOOPBACK = new SignalingSocket.Settings(
            List.of(InetAddress.getLoopbackAddress()), 0, 0);

    private final Vertx vertx;
    private final StartVoiceSessionUseCase start;
    private HttpServer server;

    private MediaRehearsal(Vertx vertx, StartVoiceSessionUseCase start) {
        this.vertx = vertx;
        this.start = start;
    }

    /** A rehearsal's media server, listening once the future completes; {@code start} starts each call's session. */
    public static Future<MediaRehearsal> listen(Vertx vertx, StartVoiceSessionUseCase start) {
        MediaRehearsal rehearsal = new MediaRehearsal(vertx, start);
        rehearsal.server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0)
                .setMaxWebSocketFrameSize(65_536).setMaxWebSocketMessageSize(262_144))
                .requestHandler(rehearsal::request);
        return rehearsal.server.listen().map(s -> rehearsal);
    }

    /** Where call {@code call} connects as a carrier's media stream does (any dialect: its start says which). */
    public String carrierUrl(long call) {
        return "ws://127.0.0.1:" + server.actualPort() + CARRIER + call;
    }

    /** Where call {@code call} connects as a browser does on the plain WebSocket route. */
    public String browserUrl(long call) {
        return "ws://127.0.0.1:" + server.actualPort() + BROWSER + call;
    }

    /** Where call {@code call} connects as the dashboard's WebRTC signaling does (no context variables). */
    public String webRtcUrl(long call) {
        return "ws://127.0.0.1:" + server.actualPort() + WEBRTC + call;
    }

    public Future<Void> close() {
        return server.close();
    }

    private void request(HttpServerRequest request) {
        String path = request.path();
        String route = path.startsWith(CARRIER) ? CARRIER : path.startsWith(BROWSER) ? BROWSER
                : path.startsWith(WEBRTC) ? WEBRTC : null;
        if (route == null) {
            request.response().setStatusCode(404).end();
            return;
        }
        long call;
        try {
            call = Long.parseLong(path.substring(route.length()));
        } catch (NumberFormatException e) {
            request.response().setStatusCode(404).end();
            return;
        }
        // a rehearsed call is no organization's and no run's: its ids are only its number among the rehearsal's
        Admitted admitted = new Admitted(0, 0, -call, null, null);
        request.toWebSocket().onSuccess(socket -> {
            switch (route) {
                case CARRIER -> new CarrierMediaSocket(socket, admitted, start, CarrierDialects.ALL, vertx,
                        Vertx.currentContext(), 10_000).listen();
                case BROWSER -> new BrowserVoiceSocket(socket, admitted, start, vertx, Vertx.currentContext()).listen();
                default -> new SignalingSocket(socket, admitted, null, start, vertx, Vertx.currentContext(), LOOPBACK)
                        .listen();
            }
        }).onFailure(failure -> LOG.log(System.Logger.Level.DEBUG, "rehearsed call {0} not upgraded: {1}", call,
                failure.toString()));
    }
}
