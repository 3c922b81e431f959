package dev.voiceagent.application.telephony;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;
import java.util.List;

@Singleton
public class ListTelephonyConfigurationsService implements ListTelephonyConfigurationsUseCase {

    private final TelephonyConfigurationRepository configurations;

    public ListTelephonyConfigurationsService(TelephonyConfigurationRepository configurations) {
        this.configurations = configurations;
    }

    @Override
    public Uni<List<TelephonyConfigurationView>> list(Principal principal) {
        return configurations.list(principal.organizationId());
    }
}
