package dev.voiceagent.application.telephony;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.telephony.TelephonyNumber;
import io.smallrye.mutiny.Uni;
import java.util.List;

@Singleton
public class ListPhoneNumbersService implements ListPhoneNumbersUseCase {

    private final TelephonyConfigurationRepository configurations;
    private final PhoneNumberRepository numbers;

    public ListPhoneNumbersService(TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers) {
        this.configurations = configurations;
        this.numbers = numbers;
    }

    @Override
    public Uni<List<PhoneNumberView>> list(Principal principal, long configurationId) {
        return TelephonyConfigurations.find(configurations, principal.organizationId(), configurationId)
                .chain(view -> numbers.list(principal.organizationId(), configurationId));
    }
}
