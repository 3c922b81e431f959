package dev.voiceagent.adapters.telephony.twilio;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import java.util.Map;

/** The part of Twilio's REST API (2010-04-01) the gateway uses. */
@Path("/2010-04-01/Accounts/{accountSid}")
@Produces(MediaType.APPLICATION_JSON)
public interface TwilioApi {

    @POST
    @Path("/Calls.json")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    Uni<Map<String, Object>> create(@PathParam("accountSid") String accountSid,
            @HeaderParam("Authorization") String authorization, MultivaluedMap<String, String> form);

    @POST
    @Path("/Calls/{callSid}.json")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    Uni<Map<String, Object>> update(@PathParam("accountSid") String accountSid, @PathParam("callSid") String callSid,
            @HeaderParam("Authorization") String authorization, MultivaluedMap<String, String> form);

    @GET
    @Path("/Calls/{callSid}.json")
    Uni<Map<String, Object>> fetch(@PathParam("accountSid") String accountSid, @PathParam("callSid") String callSid,
            @HeaderParam("Authorization") String authorization);
}
