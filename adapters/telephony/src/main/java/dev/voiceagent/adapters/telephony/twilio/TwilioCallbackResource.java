package dev.voiceagent.adapters.telephony.twilio;

import dev.voiceagent.adapters.telephony.FormBody;
import dev.voiceagent.application.call.AuthenticateCallReportUseCase;
import dev.voiceagent.application.call.CallReport;
import dev.voiceagent.application.call.ProcessCallReportUseCase;
import dev.voiceagent.application.call.SignatureCheck;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;

/**
 * Twilio's status callbacks. The X-Twilio-Signature is checked against the raw form body and the
 * URL Twilio was given, with the auth token of the configuration the call was placed with.
 */
@Path("/api/v1/telephony/twilio/status-callback/{run_id}")
@PermitAll
public class TwilioCallbackResource {

    private final TwilioCallGateway gateway;
    private final ProcessCallReportUseCase reports;
    private final AuthenticateCallReportUseCase authenticator;

    public TwilioCallbackResource(TwilioCallGateway gateway, ProcessCallReportUseCase reports,
            AuthenticateCallReportUseCase authenticator) {
        this.gateway = gateway;
        this.reports = reports;
        this.authenticator = authenticator;
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Uni<Response> status(@PathParam("run_id") long runId, @HeaderParam("X-Twilio-Signature") String signature,
            String body) {
        Map<String, List<String>> params = FormBody.parse(body);
        String url = gateway.statusCallbackUrl(runId);
        CallStatus status = TwilioStatuses.map(FormBody.first(params, "CallStatus"), FormBody.first(params, "AnsweredBy"))
                .orElse(null);
        String callSid = FormBody.first(params, "CallSid");
        SignatureCheck signed = configuration -> configuration instanceof ProviderConfiguration.Twilio twilio
                && TwilioSignature.valid(twilio.authToken(), url, params, signature);
        if (status == null || callSid == null) { // signed first: an unsigned request learns nothing
            return authenticator.authenticate(runId, Provider.TWILIO, signed)
                    .replaceWith(Response.status(400).type(MediaType.APPLICATION_JSON)
                            .entity(Map.of("detail", "Not a Twilio status callback")).build());
        }
        String sequence = FormBody.first(params, "SequenceNumber");
        CallReport report = new CallReport(Provider.TWILIO, runId, callSid, status, seconds(FormBody.first(params,
                "CallDuration")),
                callSid + ":" + FormBody.first(params, "CallStatus") + ":" + (sequence == null ? "" : sequence));
        return reports.process(report, signed).map(result -> Response.ok(Map.of("status", result)).build());
    }

    private static Integer seconds(String value) {
        try {
            return value == null ? null : Integer.valueOf(value.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
