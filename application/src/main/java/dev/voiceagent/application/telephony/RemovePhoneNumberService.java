package dev.voiceagent.application.telephony;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

@Singleton
public class RemovePhoneNumberService implements RemovePhoneNumberUseCase {

    private final TelephonyConfigurationRepository configurations;
    private final PhoneNumberRepository numbers;

    public RemovePhoneNumberService(TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers) {
        this.configurations = configurations;
        this.numbers = numbers;
    }

    @Override
    public Uni<Void> remove(Principal principal, long configurationId, long numberId) {
        long org = principal.organizationId();
        return PhoneNumbers.find(configurations, numbers, org, configurationId, numberId)
                .chain(n -> numbers.delete(org, configurationId, numberId));
    }
}
