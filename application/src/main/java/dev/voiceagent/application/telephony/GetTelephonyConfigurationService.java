package dev.voiceagent.application.telephony;

import dev.voiceagent.application.auth.Principal;
import io.smallrye.mutiny.Uni;

public class GetTelephonyConfigurationService implements GetTelephonyConfigurationUseCase {

    private final TelephonyConfigurationRepository configurations;

    public GetTelephonyConfigurationService(TelephonyConfigurationRepository configurations) {
        this.configurations = configurations;
    }

    @Override
    public Uni<TelephonyConfigurationView> get(Principal principal, long configurationId) {
        return TelephonyConfigurations.find(configurations, principal.organizationId(), configurationId);
    }
}
