package dev.voiceagent.adapters.webrtc;

import dev.voiceagent.application.auth.AuthenticateUseCase;
import dev.voiceagent.application.auth.Credentials;
import dev.voiceagent.application.shared.AuthenticationException;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.shared.ForbiddenException;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.voice.runtime.CallMediaUseCases.AdmitBrowserMediaUseCase;
import dev.voiceagent.application.voice.runtime.CallMediaUseCases.Admitted;
import dev.voiceagent.application.voice.runtime.CallMediaUseCases.StartVoiceSessionUseCase;
import dev.voiceagent.domain.apikey.ApiKeySecret;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The reference dashboard's WebRTC signaling routes ({@link SignalingSocket}, the call's media by {@link WebRtcCall}):
 * <ul>
 * <li>GET /api/v1/ws/signaling/{workflow_id}/{run_id}?token=... for a browser run of the organization (the editor's
 * Test Audio): the API key or the user's token in {@code token}, or in X-API-Key / Authorization.</li>
 * <li>GET /api/v1/ws/public/signaling/{session_token} for a voice widget's session: the session token instead of a
 * key, the page's Origin checked against the embed token's domains.</li>
 * </ul>
 * The socket is upgraded only once the caller is known and the run claimed for this replica: no credentials 401, a
 * run not the organization's 404, not a browser run or already connected or completed 409, another page 403.
 */
@ApplicationScoped
public class SignalingRoute {

    private static final System.Logger LOG = System.getLogger(SignalingRoute.class.getName());
    public static final String PATH = "/api/v1/ws/signaling/:workflow/:run";
    public static final String PUBLIC_PATH = "/api/v1/ws/public/signaling/:session";

    private final AuthenticateUseCase authenticate;
    private final AdmitBrowserMediaUseCase admit;
    private final StartVoiceSessionUseCase start;
    private final Vertx vertx;

    public SignalingRoute(AuthenticateUseCase authenticate, AdmitBrowserMediaUseCase admit,
            StartVoiceSessionUseCase start, Vertx vertx) {
        this.authenticate = authenticate;
        this.admit = admit;
        this.start = start;
        this.vertx = vertx;
    }

    void routes(@Observes Router router) {
        router.get(PATH).order(-10).handler(this::organization);
        router.get(PUBLIC_PATH).order(-10).handler(this::embed);
    }

    private void organization(RoutingContext rc) {
        long workflow;
        long run;
        try {
            workflow = Long.parseLong(rc.pathParam("workflow"));
            run = Long.parseLong(rc.pathParam("run"));
        } catch (NumberFormatException e) {
            refuse(rc, 404, "Workflow run not found");
            return;
        }
        Credentials credentials = credentials(rc.request());
        admitThen(rc, () -> authenticate.authenticate(credentials)
                .chain(principal -> admit.admit(principal, workflow, run)));
    }

    private void embed(RoutingContext rc) {
        String session = rc.pathParam("session");
        String origin = rc.request().getHeader("Origin");
        admitThen(rc, () -> admit.admitEmbed(session, origin));
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

    private void admitThen(RoutingContext rc, Supplier<Uni<Admitted>> admission) {
        HttpServerRequest request = rc.request();
        if (!"websocket".equals(String.valueOf(request.getHeader("Upgrade")).toLowerCase(Locale.ROOT))) {
            refuse(rc, 400, "This address takes a WebSocket");
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
                    LOG.log(System.Logger.Level.DEBUG, "signaling of run {0} connected", a.runId());
                    new SignalingSocket(socket, a, start, vertx, Vertx.currentContext()).listen();
                }).onFailure(failure -> LOG.log(System.Logger.Level.WARNING, "signaling of run {0} not upgraded:"
                        + " {1}", a.runId(), failure.toString()))),
                failure -> context.runOnContext(v -> {
                    request.resume();
                    int status = failure instanceof AuthenticationException ? 401
                            : failure instanceof ForbiddenException ? 403
                            : failure instanceof ResourceNotFoundException ? 404
                            : failure instanceof ConflictException ? 409 : 503;
                    if (status == 503) {
                        LOG.log(System.Logger.Level.WARNING, "signaling refused: {0}", failure.toString());
                    }
                    refuse(rc, status, status == 503 ? "The media could not be connected" : failure.getMessage());
                }));
    }

    private static void refuse(RoutingContext rc, int status, String detail) {
        rc.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                .end(new JsonObject().put("detail", detail).encode());
    }
}
