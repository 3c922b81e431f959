package dev.voiceagent.adapters.telephony.telnyx;

import dev.voiceagent.adapters.telephony.CarrierApis;
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
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Telnyx Call Control, Bearer authentication: dial with the connection id and our webhook URL, answer inbound calls,
 * and in both the call's media streamed to the voice runtime's signed address in bidirectional RTP mode (the caller's
 * inbound track only, PCMU both ways: the runtime never hears itself and Telnyx plays what it sends at once, not as
 * queued MP3 files). Transfers and hang-ups through the call's actions.
 */
@ApplicationScoped
public class TelnyxCallGateway implements CallGateway {

    private final TelnyxApi api;
    private final String callbackBaseUrl;
    private final VoiceRuntime runtime;

    public TelnyxCallGateway(@ConfigProperty(name = "voiceagent.telnyx.base-url", defaultValue = "https://api.telnyx.com")
            String baseUrl, @ConfigProperty(name = "voiceagent.callbacks.base-url") String callbackBaseUrl,
            VoiceRuntime runtime) {
        this.api = QuarkusRestClientBuilder.newBuilder().baseUri(URI.create(baseUrl)).build(TelnyxApi.class);
        this.callbackBaseUrl = CallbackUrls.base(callbackBaseUrl);
        this.runtime = runtime;
    }

    /** The streaming fields of a dial or answer command: the caller's track to {@code streamUrl}, RTP PCMU back. */
    static void stream(Map<String, Object> body, String streamUrl) {
        body.put("stream_url", streamUrl);
        body.put("stream_track", "inbound_track");
        body.put("stream_codec", "PCMU");
        body.put("stream_bidirectional_mode", "rtp");
        body.put("stream_bidirectional_codec", "PCMU");
    }

    @Override
    public Provider provider() {
        return Provider.TELNYX;
    }

    public String webhookUrl(long runId) {
        return callbackBaseUrl + "/api/v1/telephony/telnyx/events/" + runId;
    }

    @Override
    public Uni<String> originate(OutboundCall call) {
        var telnyx = (ProviderConfiguration.Telnyx) call.configuration();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("connection_id", telnyx.connectionId());
        body.put("to", call.to());
        body.put("from", call.from());
        body.put("webhook_url", webhookUrl(call.runId()));
        body.put("webhook_url_method", "POST");
        if (call.detectMachine()) { // the workflow detects voicemail: Telnyx says person or machine, then the beep
            body.put("answering_machine_detection", "detect_beep");
        }
        stream(body, runtime.streamUrl(call.organizationId(), call.workflowId(), call.runId())
                .orElseThrow(() -> new CallGatewayException(CarrierApis.NO_RUNTIME, null)));
        return api.dial(bearer(telnyx), body).map(TelnyxCallGateway::callControlId)
                .onFailure().transform(TelnyxCallGateway::refused);
    }

    @SuppressWarnings("unchecked")
    private static String callControlId(Map<String, Object> response) {
        Object data = response.get("data");
        Object id = data instanceof Map<?, ?> map ? ((Map<String, Object>) map).get("call_control_id") : null;
        if (id == null) {
            throw new CallGatewayException("Telnyx answered without a call_control_id", null);
        }
        return String.valueOf(id);
    }

    @Override
    public Uni<Void> hangUp(ProviderConfiguration configuration, String providerCallId) {
        var telnyx = (ProviderConfiguration.Telnyx) configuration;
        return api.hangup(providerCallId, bearer(telnyx), Map.of()).replaceWithVoid()
                .onFailure().transform(TelnyxCallGateway::refused);
    }

    /** An inbound call taken: answered with its media streamed to the voice runtime, in one command. */
    public Uni<Void> answerAndStream(ProviderConfiguration configuration, String callControlId, String streamUrl,
            long runId) {
        var telnyx = (ProviderConfiguration.Telnyx) configuration;
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("webhook_url", webhookUrl(runId));
        body.put("webhook_url_method", "POST");
        body.put("command_id", "answer-" + runId);
        stream(body, streamUrl);
        return api.answer(callControlId, bearer(telnyx), body).replaceWithVoid()
                .onFailure().transform(TelnyxCallGateway::refused);
    }

    /**
     * Hands the live call to {@code destination} (a number or a sip: URI): Telnyx rings it and bridges the caller
     * when it answers, then the stream to the runtime is stopped (the agent leaves the conversation). A refused
     * transfer leaves the call as it was.
     */
    @Override
    public Uni<Void> transfer(ProviderConfiguration configuration, String providerCallId,
            Transfer transfer) {
        var telnyx = (ProviderConfiguration.Telnyx) configuration;
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("to", transfer.destination().strip());
        body.put("timeout_secs", transfer.timeoutSeconds());
        if (transfer.whisperAudioUrl() != null) { // played to the destination when it answers, before bridging
            body.put("audio_url", transfer.whisperAudioUrl());
        }
        return api.transfer(providerCallId, bearer(telnyx), body)
                .chain(() -> api.streamingStop(providerCallId, bearer(telnyx), Map.of()))
                .replaceWithVoid().onFailure().transform(TelnyxCallGateway::refused);
    }

    /** An inbound call refused: USER_BUSY at the limit, CALL_REJECTED otherwise. */
    public Uni<Void> reject(ProviderConfiguration configuration, String callControlId, boolean busy) {
        var telnyx = (ProviderConfiguration.Telnyx) configuration;
        return api.reject(callControlId, bearer(telnyx), Map.of("cause", busy ? "USER_BUSY" : "CALL_REJECTED"))
                .replaceWithVoid().onFailure().transform(TelnyxCallGateway::refused);
    }

    /** Telnyx only says whether the call is still alive; a finished call's outcome comes from its events. */
    @Override
    @SuppressWarnings("unchecked")
    public Uni<Optional<CallStatus>> fetchStatus(ProviderConfiguration configuration, String providerCallId) {
        var telnyx = (ProviderConfiguration.Telnyx) configuration;
        return api.get(providerCallId, bearer(telnyx)).map(response -> {
            Object data = response.get("data");
            boolean alive = data instanceof Map<?, ?> map && Boolean.TRUE.equals(((Map<String, Object>) map).get("is_alive"));
            return alive ? Optional.of(CallStatus.IN_PROGRESS) : Optional.<CallStatus>empty();
        }).onFailure().transform(TelnyxCallGateway::refused);
    }

    private static String bearer(ProviderConfiguration.Telnyx telnyx) {
        return "Bearer " + telnyx.apiKey();
    }

    private static Throwable refused(Throwable failure) {
        return CarrierApis.refused("Telnyx", failure);
    }
}
