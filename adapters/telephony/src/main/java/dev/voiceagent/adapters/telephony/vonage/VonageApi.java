package dev.voiceagent.adapters.telephony.vonage;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/** The part of Vonage's Voice API (v1, the application's RS256 token as Bearer) the gateway uses. */
@Path("/v1/calls")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface VonageApi {

    @POST
    Uni<Map<String, Object>> create(@HeaderParam("Authorization") String authorization, Map<String, Object> body);

    /** Modifies a live call: {@code {"action": "hangup"}}, or a transfer to another NCCO. */
    @PUT
    @Path("/{uuid}")
    Uni<Void> modify(@PathParam("uuid") String uuid, @HeaderParam("Authorization") String authorization,
            Map<String, Object> body);

    @GET
    @Path("/{uuid}")
    Uni<Map<String, Object>> get(@PathParam("uuid") String uuid, @HeaderParam("Authorization") String authorization);
}
