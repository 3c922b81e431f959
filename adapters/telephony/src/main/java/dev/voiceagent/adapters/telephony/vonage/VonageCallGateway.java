package dev.voiceagent.adapters.telephony.vonage;

import dev.voiceagent.adapters.telephony.CallbackUrls;
import dev.voiceagent.adapters.telephony.CarrierApis;
import dev.voiceagent.adapters.telephony.CarrierNumbers;
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
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Vonage's Voice API (api.nexmo.com), each request authenticated by the application's RS256 token ({@link VonageJwt}):
 * the call is created with its NCCO inline (a {@code connect} to the run's signed media address as a
 * {@code websocket}, {@code audio/l16;rate=16000}: no answer URL to fetch, so no unauthenticated route hands out media
 * addresses) and its events to this service's route for the run; hang-up and transfers by modifying the call
 * ({@code PUT /v1/calls/{uuid}}); machine detection ({@code machine_detection: continue}) when the workflow detects
 * voicemail.
 */
@ApplicationScoped
public class VonageCallGateway implements CallGateway {

    static final String L16 = "audio/l16;rate=16000";
    private final VonageApi api;
    private final String callbackBase;
    private final VoiceRuntime runtime;
    private final Clock clock;

    public VonageCallGateway(@ConfigProperty(name = "voiceagent.vonage.base-url", defaultValue = "https://api.nexmo.com")
            String baseUrl, @ConfigProperty(name = "voiceagent.callbacks.base-url") String callbackBaseUrl,
            VoiceRuntime runtime, Clock clock) {
        this.api = QuarkusRestClientBuilder.newBuilder().baseUri(URI.create(baseUrl)).build(VonageApi.class);
        this.callbackBase = CallbackUrls.base(callbackBaseUrl);
        this.runtime = runtime;
        this.clock = clock;
    }

    @Override
    public Provider provider() {
        return Provider.VONAGE;
    }

    public String eventUrl(long runId) {
        return callbackBase + "/api/v1/telephony/vonage/events/" + runId;
    }

    /** The NCCO that streams a call to the voice runtime: a websocket endpoint at 16 kHz linear PCM. */
    static List<Object> connect(String streamUrl, String eventUrl, Map<String, String> headers) {
        Map<String, Object> endpoint = new LinkedHashMap<>();
        endpoint.put("type", "websocket");
        endpoint.put("uri", streamUrl);
        endpoint.put("content-type", L16);
        endpoint.put("headers", headers);
        Map<String, Object> action = new LinkedHashMap<>();
        action.put("action", "connect");
        if (eventUrl != null) {
            action.put("eventUrl", List.of(eventUrl));
            action.put("eventMethod", "POST");
        }
        action.put("endpoint", List.of(endpoint));
        return List.of(action);
    }

    /** A phone number, or a sip: address. */
    static Map<String, Object> endpoint(String destination) {
        String to = destination.strip();
        return to.regionMatches(true, 0, "sip:", 0, 4) ? Map.of("type", "sip", "uri", to)
                : Map.of("type", "phone", "number", CarrierNumbers.digits(to));
    }

    private String bearer(ProviderConfiguration configuration) {
        var vonage = (ProviderConfiguration.Vonage) configuration;
        try {
            return "Bearer " + VonageJwt.application(vonage.applicationId(), VonageJwt.privateKey(vonage.privateKey()),
                    clock.instant());
        } catch (IllegalArgumentException e) {
            throw new CallGatewayException(e.getMessage(), e);
        }
    }

    @Override
    public Uni<String> originate(OutboundCall call) {
        String stream = runtime.streamUrl(call.organizationId(), call.workflowId(), call.runId())
                .orElseThrow(() -> new CallGatewayException(CarrierApis.NO_RUNTIME, null));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("to", List.of(endpoint(call.to())));
        body.put("from", Map.of("type", "phone", "number", CarrierNumbers.digits(call.from())));
        body.put("ncco", connect(stream, null, Map.of("workflow_run_id", String.valueOf(call.runId()))));
        body.put("event_url", List.of(eventUrl(call.runId())));
        body.put("event_method", "POST");
        if (call.detectMachine()) { // the workflow detects voicemail: Vonage says human or machine, the call goes on
            body.put("machine_detection", "continue");
        }
        return Uni.createFrom().deferred(() -> api.create(bearer(call.configuration()), body))
                .map(VonageCallGateway::uuid).onFailure().transform(VonageCallGateway::refused);
    }

    private static String uuid(Map<String, Object> response) {
        if (response.get("uuid") instanceof String uuid && !uuid.isBlank()) {
            return uuid;
        }
        throw new CallGatewayException("Vonage answered without the call's uuid", null);
    }

    @Override
    public Uni<Void> hangUp(ProviderConfiguration configuration, String providerCallId) {
        return Uni.createFrom().deferred(() -> api.modify(providerCallId, bearer(configuration),
                        Map.of("action", "hangup")))
                .onFailure(CarrierApis::notFound).recoverWithNull() // the call had ended already
                .onFailure().transform(VonageCallGateway::refused);
    }

    /**
     * The caller's leg moves to an NCCO that connects the destination (a number or a sip: address), ringing it up to
     * the timeout; the websocket leg is left alone in the old conversation and closed by the session.
     */
    @Override
    public Uni<Void> transfer(ProviderConfiguration configuration, String providerCallId, Transfer transfer) {
        Map<String, Object> connect = new LinkedHashMap<>();
        connect.put("action", "connect");
        connect.put("timeout", transfer.timeoutSeconds());
        connect.put("endpoint", List.of(endpoint(transfer.destination())));
        Map<String, Object> body = Map.of("action", "transfer", "destination", Map.of("type", "ncco", "ncco",
                List.of(connect)));
        return Uni.createFrom().deferred(() -> api.modify(providerCallId, bearer(configuration), body))
                .onFailure().transform(VonageCallGateway::refused);
    }

    @Override
    public Uni<Optional<CallStatus>> fetchStatus(ProviderConfiguration configuration, String providerCallId) {
        return Uni.createFrom().deferred(() -> api.get(providerCallId, bearer(configuration)))
                .map(call -> VonageStatuses.map(String.valueOf(call.get("status"))))
                .onFailure().transform(VonageCallGateway::refused);
    }

    private static Throwable refused(Throwable failure) {
        return CarrierApis.refused("Vonage", failure);
    }
}
