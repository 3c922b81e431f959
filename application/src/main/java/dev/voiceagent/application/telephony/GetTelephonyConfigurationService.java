package dev.voiceagent.application.telephony;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

@Singleton
public class GetTelephonyConfigurationService implements GetTelephonyConfigurationUseCase {

    private final TelephonyConfigurationRepository configurations;
    private final TrunkRepository trunks;

    public GetTelephonyConfigurationService(TelephonyConfigurationRepository configurations, TrunkRepository trunks) {
        this.trunks = trunks;
        this.configurations = configurations;
    }

    @Override
    public Uni<TelephonyConfigurationDetails> get(Principal principal, long configurationId) {
        return TelephonyConfigurations.details(configurations, trunks, principal.organizationId(), configurationId);
    }
}
