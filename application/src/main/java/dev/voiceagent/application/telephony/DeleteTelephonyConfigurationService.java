package dev.voiceagent.application.telephony;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

@Singleton
public class DeleteTelephonyConfigurationService implements DeleteTelephonyConfigurationUseCase {

    private final TelephonyConfigurationRepository configurations;

    public DeleteTelephonyConfigurationService(TelephonyConfigurationRepository configurations) {
        this.configurations = configurations;
    }

    @Override
    public Uni<Void> delete(Principal principal, long configurationId) {
        return TelephonyConfigurations.find(configurations, principal.organizationId(), configurationId)
                .chain(view -> configurations.delete(principal.organizationId(), configurationId));
    }
}
