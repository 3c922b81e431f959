package dev.voiceagent.application.telephony;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;
import java.time.Clock;

@Singleton
public class ReactivateTelephonyConfigurationService implements ReactivateTelephonyConfigurationUseCase {

    private final TelephonyConfigurationRepository configurations;
    private final TrunkRepository trunks;
    private final Clock clock;

    public ReactivateTelephonyConfigurationService(TelephonyConfigurationRepository configurations, TrunkRepository trunks,
            Clock clock) {
        this.trunks = trunks;
        this.configurations = configurations;
        this.clock = clock;
    }

    @Override
    public Uni<TelephonyConfigurationDetails> reactivate(Principal principal, long configurationId) {
        long org = principal.organizationId();
        return TelephonyConfigurations.find(configurations, org, configurationId)
                .chain(view -> configurations.update(view.configuration().reactivated(clock.instant())))
                .chain(saved -> TelephonyConfigurations.details(configurations, trunks, org, configurationId));
    }
}
