package dev.voiceagent.adapters.telephony.vobiz;

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

/**
 * The part of Vobiz's Call API the gateway uses: Plivo's, under /api/v1, authenticated by the X-Auth-ID and
 * X-Auth-Token headers.
 */
@Path("/api/v1/Account/{authId}")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface VobizApi {

    @POST
    @Path("/Call/")
    Uni<Map<String, Object>> call(@PathParam("authId") String authId, @HeaderParam("X-Auth-ID") String id,
            @HeaderParam("X-Auth-Token") String token, Map<String, Object> body);

    @POST
    @Path("/Call/{callUuid}/")
    Uni<Map<String, Object>> update(@PathParam("authId") String authId, @PathParam("callUuid") String callUuid,
            @HeaderParam("X-Auth-ID") String id, @HeaderParam("X-Auth-Token") String token, Map<String, Object> body);

    @DELETE
    @Path("/Call/{callUuid}/")
    Uni<Void> hangUp(@PathParam("authId") String authId, @PathParam("callUuid") String callUuid,
            @HeaderParam("X-Auth-ID") String id, @HeaderParam("X-Auth-Token") String token);

    @GET
    @Path("/Call/{callUuid}/")
    Uni<Map<String, Object>> get(@PathParam("authId") String authId, @PathParam("callUuid") String callUuid,
            @QueryParam("status") String status, @HeaderParam("X-Auth-ID") String id,
            @HeaderParam("X-Auth-Token") String token);
}
