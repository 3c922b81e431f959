package dev.voiceagent.adapters.telephony.plivo;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

/** Plivo's webhooks ({@link PlivoFamilyResource}), signed with X-Plivo-Signature-V3; and its machine detection's. */
@Path("/api/v1/telephony/plivo")
@PermitAll
public class PlivoResource extends PlivoFamilyResource {

    public PlivoResource(PlivoWebhooks webhooks) {
        super(webhooks, PlivoFamily.PLIVO);
    }

    @POST
    @Path("/machine-detection/{run_id}")
    public Uni<Response> machine(@PathParam("run_id") long runId, @Context HttpHeaders headers, String body) {
        return webhooks().machine(PlivoFamily.PLIVO, runId, headers, body);
    }
}
