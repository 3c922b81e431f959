package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.ResourceNotFoundException;
import io.smallrye.mutiny.Uni;

/** Steps the telephony use cases share. */
public final class TelephonyConfigurations {

    public static final String NOT_FOUND = "Telephony configuration not found";

    private TelephonyConfigurations() {
    }

    public static Uni<TelephonyConfigurationView> find(TelephonyConfigurationRepository configurations,
            long organizationId, long configurationId) {
        return configurations.find(organizationId, configurationId)
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND)));
    }
}
