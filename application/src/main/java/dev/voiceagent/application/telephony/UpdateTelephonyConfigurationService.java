package dev.voiceagent.application.telephony;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import dev.voiceagent.domain.telephony.ProviderConfigurations;
import dev.voiceagent.domain.telephony.TelephonyConfiguration;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.Map;

@Singleton
public class UpdateTelephonyConfigurationService implements UpdateTelephonyConfigurationUseCase {

    private final TelephonyConfigurationRepository configurations;
    private final TrunkRepository trunks;
    private final Clock clock;
    private final CarrierAccounts accounts;

    public UpdateTelephonyConfigurationService(TelephonyConfigurationRepository configurations, TrunkRepository trunks,
            Clock clock, CarrierAccounts accounts) {
        this.accounts = accounts;
        this.trunks = trunks;
        this.configurations = configurations;
        this.clock = clock;
    }

    @Override
    public Uni<TelephonyConfigurationDetails> update(Principal principal, long configurationId, String name,
            Provider provider, Map<String, Object> fields) {
        long org = principal.organizationId();
        return TelephonyConfigurations.find(configurations, org, configurationId).chain(view -> {
            String checkedName = name == null ? null : TelephonyConfiguration.checkName(name);
            TelephonyConfiguration current = view.configuration();
            ProviderConfiguration changed = null;
            if (fields != null) {
                Provider target = provider == null ? current.provider() : provider;
                if (target != current.provider()) {
                    throw new DomainRuleViolation("The provider of a configuration cannot change (it is "
                            + current.provider().wireName() + ")");
                }
                changed = ProviderConfigurations.parse(target, ProviderConfigurations.restored(target, fields,
                        current.configuration().fields()));
            }
            TelephonyConfiguration edited = current.edited(checkedName, changed, clock.instant());
            // credentials that changed are checked with the carrier before they are kept
            Uni<Void> checked = changed == null || changed.equals(current.configuration())
                    ? Uni.createFrom().voidItem() : accounts.verify(changed);
            return checked.chain(() -> configurations.update(edited));
        }).chain(saved -> TelephonyConfigurations.details(configurations, trunks, org, configurationId));
    }
}
