package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.telephony.TelephonyNumber;
import io.smallrye.mutiny.Uni;

/** Find a number of a configuration of the caller's organization. */
final class PhoneNumbers {

    static final String NOT_FOUND = "Phone number not found";

    private PhoneNumbers() {
    }

    static Uni<TelephonyNumber> find(TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers,
            long organizationId, long configurationId, long numberId) {
        return TelephonyConfigurations.find(configurations, organizationId, configurationId)
                .chain(view -> numbers.find(organizationId, configurationId, numberId))
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND)));
    }
}
