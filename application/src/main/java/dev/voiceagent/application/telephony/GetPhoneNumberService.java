package dev.voiceagent.application.telephony;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.telephony.TelephonyNumber;
import io.smallrye.mutiny.Uni;

@Singleton
public class GetPhoneNumberService implements GetPhoneNumberUseCase {

    private final TelephonyConfigurationRepository configurations;
    private final PhoneNumberRepository numbers;

    public GetPhoneNumberService(TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers) {
        this.configurations = configurations;
        this.numbers = numbers;
    }

    @Override
    public Uni<PhoneNumberView> get(Principal principal, long configurationId, long numberId) {
        return PhoneNumbers.find(configurations, numbers, principal.organizationId(), configurationId, numberId);
    }
}
