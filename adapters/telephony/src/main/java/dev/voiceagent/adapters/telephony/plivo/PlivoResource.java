package dev.voiceagent.adapters.telephony.plivo;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

/** Plivo's webhooks ({@link PlivoWebhooks}): form posts, signed with X-Plivo-Signature-V3. */
@Path("/api/v1/telephony/plivo")
@PermitAll
public class PlivoResource {

    static final PlivoFamily FAMILY = PlivoFamily.PLIVO;
    private final PlivoWebhooks webhooks;

    public PlivoResource(PlivoWebhooks webhooks) {
        this.webhooks = webhooks;
    }

    @POST
    @Path("/answer/{run_id}")
    public Uni<Response> answer(@PathParam("run_id") long runId, @QueryParam("workflow_id") long workflowId,
            @QueryParam("organization_id") long organizationId, @Context HttpHeaders headers, String body) {
        return webhooks.answer(FAMILY, workflowId, organizationId, runId, headers, body);
    }

    @POST
    @Path("/ring-callback/{run_id}")
    public Uni<Response> ring(@PathParam("run_id") long runId, @Context HttpHeaders headers, String body) {
        return webhooks.status(FAMILY, webhooks.ringUrl(FAMILY, runId), runId, headers, body);
    }

    @POST
    @Path("/hangup-callback/{run_id}")
    public Uni<Response> hangup(@PathParam("run_id") long runId, @Context HttpHeaders headers, String body) {
        return webhooks.status(FAMILY, webhooks.hangupUrl(FAMILY, runId), runId, headers, body);
    }

    @POST
    @Path("/machine-detection/{run_id}")
    public Uni<Response> machine(@PathParam("run_id") long runId, @Context HttpHeaders headers, String body) {
        return webhooks.machine(FAMILY, runId, headers, body);
    }

    @POST
    @Path("/transfer/{run_id}")
    public Uni<Response> transfer(@PathParam("run_id") long runId, @QueryParam("to") String to,
            @QueryParam("timeout") int timeout, @QueryParam("sig") String sig, @Context HttpHeaders headers,
            String body) {
        return webhooks.transfer(FAMILY, runId, to, timeout, sig, headers, body);
    }

    @POST
    @Path("/inbound")
    public Uni<Response> inbound(@Context HttpHeaders headers, String body) {
        return webhooks.inbound(FAMILY, "/api/v1/telephony/plivo/inbound", headers, body);
    }
}
