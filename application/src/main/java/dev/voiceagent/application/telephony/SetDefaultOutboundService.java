package dev.voiceagent.application.telephony;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;

@Singleton
public class SetDefaultOutboundService implements SetDefaultOutboundUseCase {

    private final TelephonyConfigurationRepository configurations;
    private final TrunkRepository trunks;

    public SetDefaultOutboundService(TelephonyConfigurationRepository configurations, TrunkRepository trunks) {
        this.trunks = trunks;
        this.configurations = configurations;
    }

    @Override
    public Uni<TelephonyConfigurationDetails> setDefault(Principal principal, long configurationId) {
        long org = principal.organizationId();
        return TelephonyConfigurations.find(configurations, org, configurationId).chain(view -> {
            if (!view.configuration().active()) {
                throw new DomainRuleViolation("An inactive configuration cannot be the default for outbound calls");
            }
            return configurations.makeDefaultOutbound(org, configurationId);
        }).chain(() -> TelephonyConfigurations.details(configurations, trunks, org, configurationId));
    }
}
