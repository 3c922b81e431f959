package dev.voiceagent.adapters.telephony.twilio;

import dev.voiceagent.adapters.telephony.CallbackUrls;
import dev.voiceagent.adapters.telephony.FormBody;
import dev.voiceagent.application.call.AuthenticateCallReportUseCase;
import dev.voiceagent.application.call.ReportAnsweringMachineUseCase;
import dev.voiceagent.application.call.ReportAnsweringMachineUseCase.Verdict;
import dev.voiceagent.application.call.SignatureCheck;
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
import java.util.Locale;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Twilio's asynchronous answering-machine detection ({@code AsyncAmdStatusCallback}, signed as its other webhooks):
 * the {@code AnsweredBy} of a live call reaches its voice session, which follows the workflow's voicemail detection.
 */
@Path("/api/v1/telephony/twilio/amd/{run_id}")
@PermitAll
public class TwilioAmdResource {

    private final AuthenticateCallReportUseCase authenticator;
    private final ReportAnsweringMachineUseCase amd;
    private final String callbackBase;

    public TwilioAmdResource(AuthenticateCallReportUseCase authenticator, ReportAnsweringMachineUseCase amd,
            @ConfigProperty(name = "voiceagent.callbacks.base-url") String callbackBaseUrl) {
        this.authenticator = authenticator;
        this.amd = amd;
        this.callbackBase = CallbackUrls.base(callbackBaseUrl);
    }

    static String path(long runId) {
        return "/api/v1/telephony/twilio/amd/" + runId;
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Uni<Response> detected(@PathParam("run_id") long runId,
            @HeaderParam("X-Twilio-Signature") String signature, String body) {
        Map<String, List<String>> params = FormBody.parse(body == null ? "" : body);
        String url = callbackBase + path(runId);
        SignatureCheck signed = configuration -> configuration instanceof ProviderConfiguration.Twilio twilio
                && TwilioSignature.valid(twilio.authToken(), url, params, signature);
        Verdict verdict = Verdict.ofTwilio(FormBody.first(params, "AnsweredBy"));
        return authenticator.authenticate(runId, Provider.TWILIO, signed)
                .chain(() -> amd.report(runId, verdict))
                .replaceWith(Response.ok(Map.of("answered_by", verdict.name().toLowerCase(Locale.ROOT)))
                        .build());
    }
}
