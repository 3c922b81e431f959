package dev.voiceagent.adapters.telephony.cloudonix;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/** The part of Cloudonix's REST API (api.cloudonix.io, the domain's API key as Bearer) the gateway uses. */
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Path("/")
public interface CloudonixApi {

    /** Places a call that runs the given CXML once answered; its session token in {@code token}. */
    @POST
    @Path("/calls/{domain}/application")
    Uni<Map<String, Object>> call(@PathParam("domain") String domain,
            @HeaderParam("Authorization") String authorization, Map<String, Object> body);

    /** Moves a live call to new CXML (a transfer's {@code <Dial>}). */
    @POST
    @Path("/calls/{domain}/sessions/{token}/application")
    Uni<Map<String, Object>> switchApplication(@PathParam("domain") String domain, @PathParam("token") String token,
            @HeaderParam("Authorization") String authorization, Map<String, Object> body);

    @DELETE
    @Path("/customers/self/domains/{domain}/sessions/{token}")
    Uni<Void> hangUp(@PathParam("domain") String domain, @PathParam("token") String token,
            @HeaderParam("Authorization") String authorization);

    @GET
    @Path("/customers/self/domains/{domain}/sessions/{token}")
    Uni<Map<String, Object>> session(@PathParam("domain") String domain, @PathParam("token") String token,
            @HeaderParam("Authorization") String authorization);
}
