package dev.voiceagent.application.telephony;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.telephony.TelephonyNumber;
import io.smallrye.mutiny.Uni;

@Singleton
public class SetDefaultCallerService implements SetDefaultCallerUseCase {

    private final TelephonyConfigurationRepository configurations;
    private final PhoneNumberRepository numbers;

    public SetDefaultCallerService(TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers) {
        this.configurations = configurations;
        this.numbers = numbers;
    }

    @Override
    public Uni<PhoneNumberView> setDefaultCaller(Principal principal, long configurationId, long numberId) {
        long org = principal.organizationId();
        return PhoneNumbers.find(configurations, numbers, org, configurationId, numberId).chain(view -> {
            if (!view.number().active()) {
                throw new DomainRuleViolation("An inactive number cannot be the default caller");
            }
            return numbers.makeDefaultCaller(org, configurationId, numberId);
        }).chain(() -> PhoneNumbers.find(configurations, numbers, org, configurationId, numberId));
    }
}
