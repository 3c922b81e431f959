package dev.voiceagent.adapters.telephony.cloudonix;

import static dev.voiceagent.adapters.telephony.twilio.Twiml.element;
import static dev.voiceagent.adapters.telephony.twilio.Twiml.response;

import dev.voiceagent.application.call.AuthenticateCallReportUseCase;
import dev.voiceagent.application.call.CallReport;
import dev.voiceagent.application.call.InboundCallUseCase;
import dev.voiceagent.application.call.InboundCallUseCase.Answer;
import dev.voiceagent.application.call.InboundCallUseCase.InboundCall;
import dev.voiceagent.application.call.ProcessCallReportUseCase;
import dev.voiceagent.application.call.SignatureCheck;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import jakarta.annotation.security.PermitAll;
import jakarta.inject.Singleton;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.Map;

/**
 * Cloudonix's requests, JSON bodies. Cloudonix signs nothing, so each is taken only where it proves itself:
 * <ul>
 * <li>a run's session notifications ({@code /cloudonix/session-update/{run}/{signature}}, the call's callback): the
 * address carries this service's signature of the run; the session's status (ringing, connected/answer, busy,
 * noanswer, cancel, nocredit/error; answered then ended: completed, its duration from callAnswerTime to callEndTime),
 * once per eventId;</li>
 * <li>inbound calls ({@code /cloudonix/inbound}, or {@code /inbound/run}): the voice application request carries the
 * domain's authorization key as {@code Authorization: Bearer} (the domain profile's authorization-api-key, set to the
 * configuration's bearer token) and names the configuration's domain; answered with the stream's CXML, or
 * {@code <Reject reason="busy"/>} (not billed) when refused.</li>
 * </ul>
 */
@Path("/api/v1/telephony/cloudonix")
@PermitAll
@Singleton
public class CloudonixResource {

    private final ProcessCallReportUseCase reports;
    private final AuthenticateCallReportUseCase authenticator;
    private final InboundCallUseCase inbound;
    private final CloudonixCallGateway gateway;

    public CloudonixResource(ProcessCallReportUseCase reports, AuthenticateCallReportUseCase authenticator,
            InboundCallUseCase inbound, CloudonixCallGateway gateway) {
        this.reports = reports;
        this.authenticator = authenticator;
        this.inbound = inbound;
        this.gateway = gateway;
    }

    private static JsonObject json(String body) {
        try {
            return body == null || body.isBlank() ? null : new JsonObject(body);
        } catch (DecodeException | ClassCastException e) {
            return null;
        }
    }

    private static Response reply(int status, Map<String, Object> body) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(body).build();
    }

    @POST
    @Path("/session-update/{run_id}/{token}")
    public Uni<Response> sessionUpdate(@PathParam("run_id") long runId, @PathParam("token") String signature,
            String body) {
        // the run's Cloudonix call first (another's run: 404), then the address's signature (403)
        return authenticator.authenticate(runId, Provider.CLOUDONIX, configuration -> gateway.sessionUpdateSigned(
                runId, signature)).chain(() -> sessionUpdate(runId, body));
    }

    private Uni<Response> sessionUpdate(long runId, String body) {
        JsonObject session = json(body);
        String token = session == null ? null : session.getString("token");
        if (token == null) {
            return Uni.createFrom().item(reply(400, Map.of("detail", "Not a Cloudonix session")));
        }
        Object answeredAt = session.getValue("callAnswerTime");
        Object endedAt = session.getValue("callEndTime");
        boolean answered = CloudonixCallGateway.positive(answeredAt);
        boolean ended = CloudonixCallGateway.positive(endedAt);
        CallStatus status = CloudonixStatuses.ofSession(session.getString("status"), answered, ended).orElse(null);
        if (status == null) {
            return Uni.createFrom().item(reply(200, Map.of("status", "ignored: status not tracked")));
        }
        Integer duration = answered && ended ? (int) ((millis(endedAt) - millis(answeredAt)) / 1000) : null;
        String event = session.getString("eventId", token + ":" + session.getString("status") + ":"
                + session.getString("modifiedAt", ""));
        CallReport report = new CallReport(Provider.CLOUDONIX, runId, token, status, duration, event);
        return reports.process(report, configuration -> configuration instanceof ProviderConfiguration.Cloudonix)
                .map(result -> reply(200, Map.of("status", result)))
                .onFailure(ResourceNotFoundException.class).recoverWithItem(reply(200,
                        Map.of("status", "ignored: another session")));
    }

    @POST
    @Path("/inbound")
    public Uni<Response> inbound(@HeaderParam("Authorization") String authorization, String body) {
        JsonObject call = json(body);
        String session = call == null ? null : call.getString("Session", call.getString("CallSid"));
        if (session == null) {
            return Uni.createFrom().item(reply(400, Map.of("detail", "Not a Cloudonix voice application request")));
        }
        String domain = call.getString("Domain", call.getString("AccountSid"));
        SignatureCheck signed = configuration -> configuration instanceof ProviderConfiguration.Cloudonix c
                && bearer(authorization, c.bearerToken())
                && (domain == null || c.domainId().equals(domain.strip().toLowerCase(Locale.ROOT)));
        InboundCall inboundCall = new InboundCall(Provider.CLOUDONIX, call.getString("To"), call.getString("From"),
                session, signed);
        return inbound.answer(inboundCall).map(answer -> switch (answer) {
            case Answer.Stream s -> Response.ok(CloudonixCallGateway.stream(s.streamUrl()).document())
                    .type(MediaType.APPLICATION_XML).build();
            case Answer.Reject r -> Response.ok(response(element("Reject").attribute("reason",
                    "busy".equals(r.reason()) ? "busy" : "rejected")).document()).type(MediaType.APPLICATION_XML)
                    .build();
        });
    }

    /** Whether a request to the generic inbound address is Cloudonix's voice application request. */
    public static boolean isCloudonix(String userAgent, String cxHeader, String body) {
        if (userAgent != null && userAgent.toLowerCase(Locale.ROOT).contains("cloudonix") || cxHeader != null) {
            return true;
        }
        JsonObject call = json(body);
        return call != null && call.getString("Session") != null && call.getString("CallSid") != null;
    }

    private static boolean bearer(String authorization, String key) {
        if (authorization == null || key == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        return MessageDigest.isEqual(authorization.substring(7).strip().getBytes(StandardCharsets.UTF_8),
                key.getBytes(StandardCharsets.UTF_8));
    }

    private static long millis(Object epochMs) {
        return epochMs instanceof Number n ? n.longValue() : Long.parseLong(String.valueOf(epochMs).strip());
    }
}
