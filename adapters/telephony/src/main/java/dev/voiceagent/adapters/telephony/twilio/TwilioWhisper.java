package dev.voiceagent.adapters.telephony.twilio;

import static dev.voiceagent.adapters.telephony.twilio.Twiml.element;
import static dev.voiceagent.adapters.telephony.twilio.Twiml.response;

import dev.voiceagent.adapters.telephony.CallbackUrls;
import dev.voiceagent.adapters.telephony.FormBody;
import dev.voiceagent.application.call.AuthenticateCallReportUseCase;
import dev.voiceagent.application.call.SignatureCheck;
import dev.voiceagent.application.call.Transfer;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A transfer's whisper on Twilio: the {@code url} of the {@code <Dial>}'s noun, which Twilio requests when the person
 * called answers and whose TwiML it plays to them alone before putting the caller through: the recording
 * ({@code <Play>}) and the line ({@code <Say>}) the transfer tool names, carried in the address Twilio signs.
 */
@Path("/api/v1/telephony/twilio/whisper/{run_id}")
@PermitAll
public class TwilioWhisper {

    private final AuthenticateCallReportUseCase authenticator;
    private final String callbackBase;

    public TwilioWhisper(AuthenticateCallReportUseCase authenticator,
            @ConfigProperty(name = "voiceagent.callbacks.base-url") String callbackBaseUrl) {
        this.authenticator = authenticator;
        this.callbackBase = CallbackUrls.base(callbackBaseUrl);
    }

    /** The whisper's address for a transfer: this route, the line and the recording in its query. */
    static String url(String callbackBase, Transfer transfer) {
        StringBuilder url = new StringBuilder(callbackBase).append("/api/v1/telephony/twilio/whisper/")
                .append(transfer.runId());
        char next = '?';
        if (transfer.whisperAudioUrl() != null) {
            url.append(next).append("play=").append(URLEncoder.encode(transfer.whisperAudioUrl(), StandardCharsets.UTF_8));
            next = '&';
        }
        if (transfer.whisperText() != null && !transfer.whisperText().isBlank()) {
            url.append(next).append("say=").append(URLEncoder.encode(transfer.whisperText().strip(),
                    StandardCharsets.UTF_8));
        }
        return url.toString();
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Uni<Response> whisper(@PathParam("run_id") long runId, @QueryParam("say") String say,
            @QueryParam("play") String play, @HeaderParam("X-Twilio-Signature") String signature, String body) {
        Map<String, List<String>> params = FormBody.parse(body == null ? "" : body);
        Transfer transfer = new Transfer(runId, "", 0, say, play);
        String url = url(callbackBase, transfer); // the address Twilio was given, which its signature covers
        SignatureCheck signed = configuration -> configuration instanceof ProviderConfiguration.Twilio twilio
                && TwilioSignature.valid(twilio.authToken(), url, params, signature);
        return authenticator.authenticate(runId, Provider.TWILIO, signed)
                .map(ok -> Response.ok(twiml(play, say).document()).type("text/xml").build());
    }

    /** What the person called hears before the caller is put through: the recording, then the line. */
    static Twiml twiml(String play, String say) {
        Twiml whisper = response();
        if (play != null && !play.isBlank()) {
            whisper.with(element("Play").text(play));
        }
        if (say != null && !say.isBlank()) {
            whisper.with(element("Say").text(say));
        }
        return whisper;
    }
}
