package dev.voiceagent.adapters.media;

import dev.voiceagent.adapters.media.carrier.CarrierDialects;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.AdmitCallMediaUseCase;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.Admitted;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.StartVoiceSessionUseCase;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Locale;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The carriers' media route, the reference's address: GET /api/v1/telephony/ws/{workflow_id}/{organization_id}/
 * {run_id}/{token} (Asterisk's: /api/v1/telephony/ws/ari?workflow_id=&organization_id=&workflow_run_id=&token=), upgraded to a WebSocket only after the token's signature is checked and the run is claimed for
 * this replica (a wrong token 403, an unknown run or another organization's 404, a completed run or a second socket
 * 409, each logged without the token; {@link MediaRefusal}, as on the browsers' routes). The socket then speaks the
 * media protocol of the carrier whose start message it receives ({@link CarrierMediaSocket}).
 */
@ApplicationScoped
public class CarrierMediaRoute {

    private static final System.Logger LOG = System.getLogger(CarrierMediaRoute.class.getName());
    public static final String PATH = "/api/v1/telephony/ws/:workflow/:organization/:run/:token";
    /**
     * Asterisk's externalMedia WebSocket connects to its websocket_client.conf URI, which cannot carry a call's path:
     * the same ids and token come as the query its {@code transport_data=v(...)} appends, and the socket's subprotocol
     * is {@code media} ({@link MediaSubprotocol}).
     */
    public static final String ASTERISK_PATH = "/api/v1/telephony/ws/ari";

    private final AdmitCallMediaUseCase admit;
    private final StartVoiceSessionUseCase start;
    private final Vertx vertx;
    private final Duration startTimeout;

    /**
     * @param startTimeout how long an upgraded socket may go without the carrier's start message before it is closed
     *        and its run ended (system_connect_error)
     */
    public CarrierMediaRoute(AdmitCallMediaUseCase admit, StartVoiceSessionUseCase start, Vertx vertx,
            @ConfigProperty(name = "voiceagent.media.start-timeout", defaultValue = "PT10S") Duration startTimeout) {
        this.admit = admit;
        this.start = start;
        this.vertx = vertx;
        this.startTimeout = startTimeout;
    }

    void routes(@Observes Router router) {
        router.get(ASTERISK_PATH).order(-11).handler(rc -> handle(rc, rc.queryParams().get("workflow_id"),
                rc.queryParams().get("organization_id"), rc.queryParams().get("workflow_run_id"),
                rc.queryParams().get("token")));
        router.get(PATH).order(-10).handler(rc -> handle(rc, rc.pathParam("workflow"), rc.pathParam("organization"),
                rc.pathParam("run"), rc.pathParam("token")));
    }

    private void handle(RoutingContext rc, String workflowId, String organizationId, String runId, String token) {
        HttpServerRequest request = rc.request();
        long workflow;
        long organization;
        long run;
        try {
            workflow = Long.parseLong(workflowId);
            organization = Long.parseLong(organizationId);
            run = Long.parseLong(runId);
        } catch (NumberFormatException e) {
            refuse(rc, new MediaRefusal(404, "Workflow run not found"), "malformed ids");
            return;
        }
        if (!"websocket".equals(String.valueOf(request.getHeader("Upgrade")).toLowerCase(Locale.ROOT))) {
            refuse(rc, new MediaRefusal(400, "This address takes a WebSocket"),
                    "not a WebSocket upgrade for run " + run);
            return;
        }
        request.pause();
        Context context = Vertx.currentContext();
        admit.admit(workflow, organization, run, token).subscribe().with(
                admitted -> context.runOnContext(v -> upgrade(rc, admitted)),
                failure -> context.runOnContext(v -> {
                    request.resume();
                    refuse(rc, MediaRefusal.of(failure, "media of run " + run), "run " + run + ": "
                            + failure.getMessage());
                }));
    }

    private void upgrade(RoutingContext rc, Admitted admitted) {
        rc.request().toWebSocket().onSuccess(socket -> {
            LOG.log(System.Logger.Level.DEBUG, "media of run {0} connected", admitted.runId());
            new CarrierMediaSocket(socket, admitted, start,
                    CarrierDialects.forMode(admitted.run() == null ? null : admitted.run().mode()), vertx, Vertx.currentContext(),
                    startTimeout.toMillis())
                    .listen();
        }).onFailure(failure -> LOG.log(System.Logger.Level.WARNING, "media of run {0} not upgraded: {1}",
                admitted.runId(), failure.toString()));
    }

    private static void refuse(RoutingContext rc, MediaRefusal refusal, String why) {
        LOG.log(System.Logger.Level.INFO, "media socket refused ({0}): {1}", refusal.status(), why);
        refusal.send(rc);
    }
}
