package dev.voiceagent.adapters.telephony.telnyx;

import dev.voiceagent.adapters.telephony.CallbackUrls;
import dev.voiceagent.application.call.CallGateway;
import dev.voiceagent.application.call.CallGatewayException;
import dev.voiceagent.application.call.OutboundCall;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Telnyx Call Control: dial with the connection id and our webhook URL, Bearer authentication. */
@ApplicationScoped
public class TelnyxCallGateway implements CallGateway {

    private final TelnyxApi api;
    private final String callbackBaseUrl;

    public TelnyxCallGateway(@ConfigProperty(name = "voiceagent.telnyx.base-url", defaultValue = "https://api.telnyx.com")
            String baseUrl, @ConfigProperty(name = "voiceagent.callbacks.base-url") String callbackBaseUrl) {
        this.api = QuarkusRestClientBuilder.newBuilder().baseUri(URI.create(baseUrl)).build(TelnyxApi.class);
        this.callbackBaseUrl = CallbackUrls.base(callbackBaseUrl);
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

    /** An inbound call taken: answered, then its media streamed (both tracks) to the voice runtime. */
    public Uni<Void> answerAndStream(ProviderConfiguration configuration, String callControlId, String streamUrl,
            long runId) {
        var telnyx = (ProviderConfiguration.Telnyx) configuration;
        return api.answer(callControlId, bearer(telnyx), Map.of("webhook_url", webhookUrl(runId),
                        "webhook_url_method", "POST", "command_id", "answer-" + runId))
                .chain(() -> api.streamingStart(callControlId, bearer(telnyx), Map.of("stream_url", streamUrl,
                        "stream_track", "both_tracks", "command_id", "stream-" + runId)))
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
        if (failure instanceof CallGatewayException) {
            return failure;
        }
        if (failure instanceof WebApplicationException web && web.getResponse() != null) {
            return new CallGatewayException("Telnyx answered HTTP " + web.getResponse().getStatus(), failure);
        }
        return new CallGatewayException("Telnyx could not be reached", failure);
    }
}
