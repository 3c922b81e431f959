package dev.voiceagent.adapters.telephony.twilio;

import dev.voiceagent.adapters.telephony.CarrierApis;
import static dev.voiceagent.adapters.telephony.twilio.Twiml.element;
import static dev.voiceagent.adapters.telephony.twilio.Twiml.response;

import dev.voiceagent.adapters.telephony.CallbackUrls;
import dev.voiceagent.application.call.CallGateway;
import dev.voiceagent.application.call.CallGatewayException;
import dev.voiceagent.application.call.OutboundCall;
import dev.voiceagent.application.call.Transfer;
import dev.voiceagent.application.call.VoiceRuntime;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Twilio's Calls API through the Quarkus reactive REST client: basic auth with the account SID and
 * auth token, status callbacks for initiated, ringing, answered and completed to our route.
 */
@ApplicationScoped
public class TwilioCallGateway implements CallGateway {

    private final TwilioApi api;
    private final String callbackBaseUrl;
    private final VoiceRuntime runtime;

    public TwilioCallGateway(@ConfigProperty(name = "voiceagent.twilio.base-url", defaultValue = "https://api.twilio.com")
            String baseUrl, @ConfigProperty(name = "voiceagent.callbacks.base-url") String callbackBaseUrl,
            VoiceRuntime runtime) {
        this.api = QuarkusRestClientBuilder.newBuilder().baseUri(URI.create(baseUrl)).build(TwilioApi.class);
        this.callbackBaseUrl = CallbackUrls.base(callbackBaseUrl);
        this.runtime = runtime;
    }

    @Override
    public Provider provider() {
        return Provider.TWILIO;
    }

    /** The URL Twilio posts status callbacks to for a run (also what its signature covers). */
    public String statusCallbackUrl(long runId) {
        return callbackBaseUrl + "/api/v1/telephony/twilio/status-callback/" + runId;
    }

    @Override
    public Uni<String> originate(OutboundCall call) {
        var twilio = (ProviderConfiguration.Twilio) call.configuration();
        MultivaluedMap<String, String> form = new MultivaluedHashMap<>();
        form.add("To", call.to());
        form.add("From", call.from());
        String stream = runtime.streamUrl(call.organizationId(), call.workflowId(), call.runId())
                .orElseThrow(() -> new CallGatewayException(CarrierApis.NO_RUNTIME, null));
        form.add("Twiml", TwilioStreams.connect(stream, call.runId(), callbackBaseUrl).xml());
        form.add("StatusCallback", statusCallbackUrl(call.runId()));
        form.add("StatusCallbackMethod", "POST");
        for (String event : new String[] {"initiated", "ringing", "answered", "completed"}) {
            form.add("StatusCallbackEvent", event);
        }
        if (twilio.amdEnabled() || call.detectMachine()) { // asynchronous: the stream starts at once, the verdict
            // comes to the session (asked for when the configuration says so or the workflow detects voicemail)
            form.add("MachineDetection", "DetectMessageEnd");
            form.add("AsyncAmd", "true");
            form.add("AsyncAmdStatusCallback", callbackBaseUrl + TwilioAmdResource.path(call.runId()));
            form.add("AsyncAmdStatusCallbackMethod", "POST");
        }
        return api.create(twilio.accountSid(), basic(twilio), form)
                .map(response -> String.valueOf(response.get("sid")))
                .onFailure().transform(TwilioCallGateway::refused);
    }

    @Override
    public Uni<Void> hangUp(ProviderConfiguration configuration, String providerCallId) {
        var twilio = (ProviderConfiguration.Twilio) configuration;
        MultivaluedMap<String, String> form = new MultivaluedHashMap<>();
        form.add("Status", "completed");
        return api.update(twilio.accountSid(), providerCallId, basic(twilio), form).replaceWithVoid()
                .onFailure().transform(TwilioCallGateway::refused);
    }

    /**
     * Redirects the live call to {@code <Dial>} (a {@code <Number>}, or a {@code <Sip>} for a sip: URI): Twilio ends
     * the {@code <Connect><Stream>} and rings the destination, the caller on the line; a whisper is the noun's
     * {@code url}, whose TwiML Twilio plays to the person who answers before connecting them.
     */
    @Override
    public Uni<Void> transfer(ProviderConfiguration configuration, String providerCallId,
            Transfer transfer) {
        var twilio = (ProviderConfiguration.Twilio) configuration;
        MultivaluedMap<String, String> form = new MultivaluedHashMap<>();
        form.add("Twiml", dial(transfer, callbackBaseUrl).xml());
        return api.update(twilio.accountSid(), providerCallId, basic(twilio), form).replaceWithVoid()
                .onFailure().transform(TwilioCallGateway::refused);
    }

    /** The {@code <Dial>} of a transfer: its number, or its SIP address, whose whisper (if any) is the noun's url. */
    static Twiml dial(Transfer transfer, String callbackBaseUrl) {
        String to = transfer.destination().strip();
        Twiml noun = element(to.regionMatches(true, 0, "sip:", 0, 4) ? "Sip" : "Number");
        if (transfer.whispers()) {
            noun.attribute("url", TwilioWhisper.url(callbackBaseUrl, transfer));
        }
        return response(element("Dial").attribute("timeout", transfer.timeoutSeconds())
                .attribute("answerOnBridge", true).with(noun.text(to)));
    }

    @Override
    public Uni<Optional<CallStatus>> fetchStatus(ProviderConfiguration configuration, String providerCallId) {
        var twilio = (ProviderConfiguration.Twilio) configuration;
        return api.fetch(twilio.accountSid(), providerCallId, basic(twilio))
                .map((Map<String, Object> call) -> TwilioStatuses.map((String) call.get("status"),
                        (String) call.get("answered_by")))
                .onFailure().transform(TwilioCallGateway::refused);
    }

    private static String basic(ProviderConfiguration.Twilio twilio) {
        return CarrierApis.basic(twilio.accountSid(), twilio.authToken());
    }

    private static Throwable refused(Throwable failure) {
        return CarrierApis.refused("Twilio", failure);
    }
}
