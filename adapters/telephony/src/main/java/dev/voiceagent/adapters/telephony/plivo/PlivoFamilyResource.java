package dev.voiceagent.adapters.telephony.plivo;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

/**
 * The webhooks every carrier of Plivo's platform posts ({@link PlivoWebhooks}), under the carrier's own path: a
 * subclass names the carrier and its {@code @Path}.
 */
public abstract class PlivoFamilyResource {

    private final PlivoWebhooks webhooks;
    private final PlivoFamily family;

    protected PlivoFamilyResource(PlivoWebhooks webhooks, PlivoFamily family) {
        this.webhooks = webhooks;
        this.family = family;
    }

    protected PlivoWebhooks webhooks() {
        return webhooks;
    }

    @POST
    @Path("/answer/{run_id}")
    public Uni<Response> answer(@PathParam("run_id") long runId, @QueryParam("workflow_id") long workflowId,
            @QueryParam("organization_id") long organizationId, @Context HttpHeaders headers, String body) {
        return webhooks.answer(family, workflowId, organizationId, runId, headers, body);
    }

    @POST
    @Path("/ring-callback/{run_id}")
    public Uni<Response> ring(@PathParam("run_id") long runId, @Context HttpHeaders headers, String body) {
        return webhooks.status(family, webhooks.ringUrl(family, runId), runId, headers, body);
    }

    @POST
    @Path("/hangup-callback/{run_id}")
    public Uni<Response> hangup(@PathParam("run_id") long runId, @Context HttpHeaders headers, String body) {
        return webhooks.status(family, webhooks.hangupUrl(family, runId), runId, headers, body);
    }

    @POST
    @Path("/transfer/{run_id}")
    public Uni<Response> transfer(@PathParam("run_id") long runId, @QueryParam("to") String to,
            @QueryParam("timeout") int timeout, @QueryParam("sig") String sig, @Context HttpHeaders headers,
            String body) {
        return webhooks.transfer(family, runId, to, timeout, sig, headers, body);
    }

    @POST
    @Path("/inbound")
    public Uni<Response> inbound(@Context HttpHeaders headers, String body) {
        return webhooks.inbound(family, "/api/v1/telephony/" + family.route() + "/inbound", headers, body);
    }
}
