package dev.voiceagent.application.telephony;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfigurations;
import dev.voiceagent.domain.telephony.TelephonyConfiguration;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.Map;

@Singleton
public class CreateTelephonyConfigurationService implements CreateTelephonyConfigurationUseCase {

    private final TelephonyConfigurationRepository configurations;
    private final TrunkRepository trunks;
    private final Clock clock;
    private final CarrierAccounts accounts;

    public CreateTelephonyConfigurationService(TelephonyConfigurationRepository configurations, TrunkRepository trunks,
            Clock clock, CarrierAccounts accounts) {
        this.accounts = accounts;
        this.trunks = trunks;
        this.configurations = configurations;
        this.clock = clock;
    }

    @Override
    public Uni<TelephonyConfigurationDetails> create(Principal principal, String name, Provider provider,
            Map<String, Object> fields, boolean defaultOutbound) {
        TelephonyConfiguration configuration = TelephonyConfiguration.create(principal.organizationId(), name,
                ProviderConfigurations.parse(provider, fields), defaultOutbound, clock.instant());
        return accounts.verify(configuration.configuration()).chain(() -> configurations.insert(configuration))
                .chain(stored -> TelephonyConfigurations.details(configurations, trunks, principal.organizationId(), stored.id()));
    }
}
