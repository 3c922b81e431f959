package dev.voiceagent.adapters.telephony.simulator;

import dev.voiceagent.adapters.telephony.CallbackSigner;
import dev.voiceagent.application.call.CallReport;
import dev.voiceagent.application.call.ProcessCallReportUseCase;
import dev.voiceagent.application.call.SignatureCheck;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/** The simulator's status reports: HMAC-SHA256 over the raw body, checked before anything changes. */
@Path("/api/v1/telephony/simulator/events/{run_id}")
@PermitAll
public class SimulatorCallbackResource {

    private final CallbackSigner signer;
    private final ProcessCallReportUseCase reports;

    public SimulatorCallbackResource(CallbackSigner signer, ProcessCallReportUseCase reports) {
        this.signer = signer;
        this.reports = reports;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> event(@PathParam("run_id") long runId,
            @HeaderParam(SimulatorCallGateway.SIGNATURE_HEADER) String signature, String body) {
        if (!signer.verify(body, signature)) {
            return Uni.createFrom().item(Response.status(403).type(MediaType.APPLICATION_JSON)
                    .entity(Map.of("detail", "Invalid signature")).build());
        }
        JsonObject event;
        try {
            event = new JsonObject(body);
        } catch (DecodeException e) {
            return Uni.createFrom().item(Response.status(400).entity(Map.of("detail", "Invalid event")).build());
        }
        CallStatus status = CallStatus.fromWireName(event.getString("status")).orElse(null);
        if (status == null || event.getString("event_id") == null) {
            return Uni.createFrom().item(Response.status(400).entity(Map.of("detail", "Invalid event")).build());
        }
        return reports.process(new CallReport(Provider.SIMULATOR, runId, event.getString("call_id"), status,
                event.getInteger("duration_seconds"), event.getString("event_id")), SignatureCheck.VERIFIED_BY_ADAPTER)
                .map(result -> Response.ok(Map.of("status", result)).build());
    }
}
