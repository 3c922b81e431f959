package dev.voiceagent.adapters.telephony.vobiz;

import dev.voiceagent.adapters.telephony.CallbackSigner;
import dev.voiceagent.adapters.telephony.plivo.PlivoFamily;
import dev.voiceagent.adapters.telephony.plivo.PlivoFamilyGateway;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.net.URI;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Vobiz's Call API (api.vobiz.ai/api, Plivo's API under X-Auth-ID and X-Auth-Token headers); see
 * {@link PlivoFamilyGateway}. Vobiz documents no answering-machine detection: a workflow's voicemail detection works on
 * the call's audio alone.
 */
@Singleton
public class VobizCallGateway extends PlivoFamilyGateway {

    private final VobizApi api;

    public VobizCallGateway(@ConfigProperty(name = "voiceagent.vobiz.base-url", defaultValue = "https://api.vobiz.ai")
            String baseUrl, @ConfigProperty(name = "voiceagent.callbacks.base-url") String callbackBaseUrl,
            CallbackSigner signer) {
        super(PlivoFamily.VOBIZ, callbackBaseUrl, signer);
        this.api = QuarkusRestClientBuilder.newBuilder().baseUri(URI.create(baseUrl)).build(VobizApi.class);
    }

    @Override
    protected boolean detectsMachines() {
        return false;
    }

    private static ProviderConfiguration.Vobiz vobiz(ProviderConfiguration configuration) {
        return (ProviderConfiguration.Vobiz) configuration;
    }

    @Override
    protected Uni<Map<String, Object>> create(ProviderConfiguration configuration, Map<String, Object> body) {
        var v = vobiz(configuration);
        return api.call(v.authId(), v.authId(), v.authToken(), body);
    }

    @Override
    protected Uni<Map<String, Object>> update(ProviderConfiguration configuration, String callUuid,
            Map<String, Object> body) {
        var v = vobiz(configuration);
        return api.update(v.authId(), callUuid, v.authId(), v.authToken(), body);
    }

    @Override
    protected Uni<Void> delete(ProviderConfiguration configuration, String callUuid) {
        var v = vobiz(configuration);
        return api.hangUp(v.authId(), callUuid, v.authId(), v.authToken());
    }

    @Override
    protected Uni<Map<String, Object>> get(ProviderConfiguration configuration, String callUuid, String status) {
        var v = vobiz(configuration);
        return api.get(v.authId(), callUuid, status, v.authId(), v.authToken());
    }
}
