package dev.voiceagent.adapters.telephony.plivo;

import dev.voiceagent.adapters.telephony.CallbackSigner;
import dev.voiceagent.adapters.telephony.CarrierApis;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.net.URI;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Plivo's Call API (api.plivo.com, HTTP Basic with the Auth ID and Auth Token); see {@link PlivoFamilyGateway}. */
@Singleton
public class PlivoCallGateway extends PlivoFamilyGateway {

    private final PlivoApi api;

    public PlivoCallGateway(@ConfigProperty(name = "voiceagent.plivo.base-url", defaultValue = "https://api.plivo.com")
            String baseUrl, @ConfigProperty(name = "voiceagent.callbacks.base-url") String callbackBaseUrl,
            CallbackSigner signer) {
        super(PlivoFamily.PLIVO, callbackBaseUrl, signer);
        this.api = QuarkusRestClientBuilder.newBuilder().baseUri(URI.create(baseUrl)).build(PlivoApi.class);
    }

    @Override
    protected boolean detectsMachines() {
        return true;
    }

    private static ProviderConfiguration.Plivo plivo(ProviderConfiguration configuration) {
        return (ProviderConfiguration.Plivo) configuration;
    }

    private static String basic(ProviderConfiguration.Plivo plivo) {
        return CarrierApis.basic(plivo.authId(), plivo.authToken());
    }

    @Override
    protected Uni<Map<String, Object>> create(ProviderConfiguration configuration, Map<String, Object> body) {
        var plivo = plivo(configuration);
        return api.call(plivo.authId(), basic(plivo), body);
    }

    @Override
    protected Uni<Map<String, Object>> update(ProviderConfiguration configuration, String callUuid,
            Map<String, Object> body) {
        var plivo = plivo(configuration);
        return api.update(plivo.authId(), callUuid, basic(plivo), body);
    }

    @Override
    protected Uni<Void> delete(ProviderConfiguration configuration, String callUuid) {
        var plivo = plivo(configuration);
        return api.hangUp(plivo.authId(), callUuid, basic(plivo));
    }

    @Override
    protected Uni<Map<String, Object>> get(ProviderConfiguration configuration, String callUuid, String status) {
        var plivo = plivo(configuration);
        return api.get(plivo.authId(), callUuid, status, basic(plivo));
    }
}
