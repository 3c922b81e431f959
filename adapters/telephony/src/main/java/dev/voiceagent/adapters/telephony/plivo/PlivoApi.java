package dev.voiceagent.adapters.telephony.plivo;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/** The part of Plivo's Call API (v1, HTTP Basic with the Auth ID and Auth Token) the gateway uses. */
@Path("/v1/Account/{authId}")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface PlivoApi {

    @POST
    @Path("/Call/")
    Uni<Map<String, Object>> call(@PathParam("authId") String authId,
            @HeaderParam("Authorization") String authorization, Map<String, Object> body);

    /** Transfers a live call: its legs fetch new XML ({@code legs}, {@code aleg_url}). */
    @POST
    @Path("/Call/{callUuid}/")
    Uni<Map<String, Object>> update(@PathParam("authId") String authId, @PathParam("callUuid") String callUuid,
            @HeaderParam("Authorization") String authorization, Map<String, Object> body);

    @DELETE
    @Path("/Call/{callUuid}/")
    Uni<Void> hangUp(@PathParam("authId") String authId, @PathParam("callUuid") String callUuid,
            @HeaderParam("Authorization") String authorization);

    /** A call in progress ({@code status=live}), or its record once it ended (no status). */
    @GET
    @Path("/Call/{callUuid}/")
    Uni<Map<String, Object>> get(@PathParam("authId") String authId, @PathParam("callUuid") String callUuid,
            @QueryParam("status") String status, @HeaderParam("Authorization") String authorization);
}
