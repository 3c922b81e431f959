package dev.voiceagent.adapters.telephony.cloudonix;

import static dev.voiceagent.adapters.telephony.twilio.Twiml.element;
import static dev.voiceagent.adapters.telephony.twilio.Twiml.response;

import dev.voiceagent.adapters.telephony.CallbackSigner;
import dev.voiceagent.adapters.telephony.CallbackUrls;
import dev.voiceagent.adapters.telephony.CarrierApis;
import dev.voiceagent.adapters.telephony.twilio.Twiml;
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
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Cloudonix's REST API (api.cloudonix.io), the domain's API key as Bearer: a call placed with its CXML inline
 * ({@code <Connect><Stream url>} to the run's signed media address, then {@code <Hangup/>}: a stream that ends ends the
 * call) and its session's notifications to this service at an address only it can sign ({@code callback}); hang-up by
 * deleting the session; a transfer moves the live session to a {@code <Dial>}. Cloudonix signs nothing it sends: a call's
 * notifications are taken at an address carrying this service's signature, voice application requests by the domain's
 * authorization key ({@link CloudonixResource}).
 */
@ApplicationScoped
public class CloudonixCallGateway implements CallGateway {

    private final CloudonixApi api;
    private final String callbackBase;
    private final VoiceRuntime runtime;
    private final CallbackSigner signer;

    public CloudonixCallGateway(
            @ConfigProperty(name = "voiceagent.cloudonix.base-url", defaultValue = "https://api.cloudonix.io")
            String baseUrl, @ConfigProperty(name = "voiceagent.callbacks.base-url") String callbackBaseUrl,
            VoiceRuntime runtime, CallbackSigner signer) {
        this.api = QuarkusRestClientBuilder.newBuilder().baseUri(URI.create(baseUrl)).build(CloudonixApi.class);
        this.callbackBase = CallbackUrls.base(callbackBaseUrl);
        this.runtime = runtime;
        this.signer = signer;
    }

    @Override
    public Provider provider() {
        return Provider.CLOUDONIX;
    }

    /** Where a run's session notifications go: its id and this service's signature of it in the path. */
    public String sessionUpdateUrl(long runId) {
        return callbackBase + "/api/v1/telephony/cloudonix/session-update/" + runId + "/" + signer.sign(
                "cloudonix-session:" + runId);
    }

    boolean sessionUpdateSigned(long runId, String signature) {
        return signer.verify("cloudonix-session:" + runId, signature);
    }

    /** The CXML that streams a call to the voice runtime and ends it when the stream ends. */
    static Twiml stream(String streamUrl) {
        return response(element("Connect").with(element("Stream").attribute("url", streamUrl)), element("Hangup"));
    }

    private static String bearer(ProviderConfiguration configuration) {
        return "Bearer " + ((ProviderConfiguration.Cloudonix) configuration).bearerToken();
    }

    private static String domain(ProviderConfiguration configuration) {
        return ((ProviderConfiguration.Cloudonix) configuration).domainId();
    }

    @Override
    public Uni<String> originate(OutboundCall call) {
        String stream = runtime.streamUrl(call.organizationId(), call.workflowId(), call.runId())
                .orElseThrow(() -> new CallGatewayException(CarrierApis.NO_RUNTIME, null));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("destination", call.to());
        body.put("caller-id", call.from());
        body.put("cxml", stream(stream).document());
        body.put("callback", sessionUpdateUrl(call.runId()));
        return api.call(domain(call.configuration()), bearer(call.configuration()), body)
                .map(CloudonixCallGateway::token).onFailure().transform(CloudonixCallGateway::refused);
    }

    private static String token(Map<String, Object> response) {
        if (response.get("token") instanceof String token && !token.isBlank()) {
            return token;
        }
        throw new CallGatewayException("Cloudonix answered without the session's token", null);
    }

    @Override
    public Uni<Void> hangUp(ProviderConfiguration configuration, String providerCallId) {
        return api.hangUp(domain(configuration), providerCallId, bearer(configuration))
                .onFailure(CarrierApis::notFound).recoverWithNull() // the session had ended already
                .onFailure().transform(CloudonixCallGateway::refused);
    }

    /** The live session runs a {@code <Dial>} of the destination (a {@code <Sip>} for a sip: address) instead. */
    @Override
    public Uni<Void> transfer(ProviderConfiguration configuration, String providerCallId, Transfer transfer) {
        String to = transfer.destination().strip();
        Twiml dial = response(element("Dial").attribute("timeout", transfer.timeoutSeconds())
                .with(element(to.regionMatches(true, 0, "sip:", 0, 4) ? "Sip" : "Number").text(to)));
        return api.switchApplication(domain(configuration), providerCallId, bearer(configuration),
                Map.of("cxml", dial.document())).replaceWithVoid().onFailure().transform(CloudonixCallGateway::refused);
    }

    @Override
    public Uni<Optional<CallStatus>> fetchStatus(ProviderConfiguration configuration, String providerCallId) {
        return api.session(domain(configuration), providerCallId, bearer(configuration))
                .map(session -> CloudonixStatuses.ofSession(String.valueOf(session.get("status")),
                        positive(session.get("callAnswerTime")), positive(session.get("callEndTime"))))
                .onFailure().transform(CloudonixCallGateway::refused);
    }

    static boolean positive(Object epochMs) {
        return epochMs instanceof Number n ? n.longValue() > 0
                : epochMs instanceof String s && !s.isBlank() && !"0".equals(s.strip());
    }

    private static Throwable refused(Throwable failure) {
        return CarrierApis.refused("Cloudonix", failure);
    }
}
