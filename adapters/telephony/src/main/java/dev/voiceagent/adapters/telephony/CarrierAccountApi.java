package dev.voiceagent.adapters.telephony;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/** Each carrier's cheapest authenticated read of its own account: what a configuration's credentials are checked by. */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public interface CarrierAccountApi {

    /** Twilio: the account itself (HTTP Basic, account SID and auth token). */
    @GET
    @Path("/2010-04-01/Accounts/{sid}.json")
    Uni<Map<String, Object>> twilio(@PathParam("sid") String sid, @HeaderParam("Authorization") String authorization);

    /** Telnyx: the account's balance (Bearer API key). */
    @GET
    @Path("/v2/balance")
    Uni<Map<String, Object>> telnyx(@HeaderParam("Authorization") String authorization);

    /** Plivo: the account (HTTP Basic, Auth ID and Auth Token). */
    @GET
    @Path("/v1/Account/{id}/")
    Uni<Map<String, Object>> plivo(@PathParam("id") String id, @HeaderParam("Authorization") String authorization);

    /** Vobiz: the account (X-Auth-ID and X-Auth-Token). */
    @GET
    @Path("/api/v1/Account/{id}/")
    Uni<Map<String, Object>> vobiz(@PathParam("id") String id, @HeaderParam("X-Auth-ID") String authId,
            @HeaderParam("X-Auth-Token") String authToken);

    /** Vonage: the Voice application (Application API, HTTP Basic with the API key and secret). */
    @GET
    @Path("/v2/applications/{id}")
    Uni<Map<String, Object>> vonage(@PathParam("id") String applicationId,
            @HeaderParam("Authorization") String authorization);

    /** Cloudonix: the domain (Bearer, the domain's API key). */
    @GET
    @Path("/customers/self/domains/{domain}")
    Uni<Map<String, Object>> cloudonix(@PathParam("domain") String domain,
            @HeaderParam("Authorization") String authorization);
}
