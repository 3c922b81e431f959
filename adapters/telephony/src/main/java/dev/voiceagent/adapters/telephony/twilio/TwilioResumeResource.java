package dev.voiceagent.adapters.telephony.twilio;

import dev.voiceagent.adapters.telephony.CallbackUrls;
import dev.voiceagent.adapters.telephony.FormBody;
import dev.voiceagent.application.call.AuthenticateCallReportUseCase;
import dev.voiceagent.application.call.ResumeCallStreamUseCase;
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
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Where Twilio goes when a call's stream ended and the call did not (the {@code <Redirect>} after its
 * {@code <Connect><Stream>}): signed with the auth token of the configuration the call was placed or answered with; the
 * answer streams the call again to a fresh address (any replica takes it over from the call's checkpoint), or hangs up
 * a call that must not go on.
 */
@Path("/api/v1/telephony/twilio/resume/{run_id}")
@PermitAll
public class TwilioResumeResource {

    static final String HANG_UP = Twiml.response(Twiml.element("Hangup")).document();

    private final AuthenticateCallReportUseCase authenticator;
    private final ResumeCallStreamUseCase resume;
    private final String callbackBase;

    public TwilioResumeResource(AuthenticateCallReportUseCase authenticator, ResumeCallStreamUseCase resume,
            @ConfigProperty(name = "voiceagent.callbacks.base-url") String callbackBaseUrl) {
        this.authenticator = authenticator;
        this.resume = resume;
        this.callbackBase = CallbackUrls.base(callbackBaseUrl);
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Uni<Response> resume(@PathParam("run_id") long runId, @HeaderParam("X-Twilio-Signature") String signature,
            String body) {
        Map<String, List<String>> params = FormBody.parse(body == null ? "" : body);
        String url = callbackBase + TwilioStreams.resumePath(runId);
        SignatureCheck signed = configuration -> configuration instanceof ProviderConfiguration.Twilio twilio
                && TwilioSignature.valid(twilio.authToken(), url, params, signature);
        return authenticator.authenticate(runId, Provider.TWILIO, signed)
                .chain(() -> resume.resume(runId))
                .map(stream -> Response.ok(stream.map(s -> TwilioStreams.connect(s, runId, callbackBase).document())
                        .orElse(HANG_UP)).type("text/xml").build());
    }
}
