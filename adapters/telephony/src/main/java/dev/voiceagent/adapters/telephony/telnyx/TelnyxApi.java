package dev.voiceagent.adapters.telephony.telnyx;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/** The part of Telnyx's Call Control API (v2) the gateway uses. */
@Path("/v2/calls")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface TelnyxApi {

    @POST
    Uni<Map<String, Object>> dial(@HeaderParam("Authorization") String authorization, Map<String, Object> body);

    @POST
    @Path("/{callControlId}/actions/hangup")
    Uni<Map<String, Object>> hangup(@PathParam("callControlId") String callControlId,
            @HeaderParam("Authorization") String authorization, Map<String, Object> body);

    @POST
    @Path("/{callControlId}/actions/answer")
    Uni<Map<String, Object>> answer(@PathParam("callControlId") String callControlId,
            @HeaderParam("Authorization") String authorization, Map<String, Object> body);

    @POST
    @Path("/{callControlId}/actions/streaming_stop")
    Uni<Map<String, Object>> streamingStop(@PathParam("callControlId") String callControlId,
            @HeaderParam("Authorization") String authorization, Map<String, Object> body);

    @POST
    @Path("/{callControlId}/actions/transfer")
    Uni<Map<String, Object>> transfer(@PathParam("callControlId") String callControlId,
            @HeaderParam("Authorization") String authorization, Map<String, Object> body);

    @POST
    @Path("/{callControlId}/actions/reject")
    Uni<Map<String, Object>> reject(@PathParam("callControlId") String callControlId,
            @HeaderParam("Authorization") String authorization, Map<String, Object> body);

    @GET
    @Path("/{callControlId}")
    Uni<Map<String, Object>> get(@PathParam("callControlId") String callControlId,
            @HeaderParam("Authorization") String authorization);
}
