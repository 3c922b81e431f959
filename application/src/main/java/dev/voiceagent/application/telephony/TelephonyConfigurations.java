package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.ResourceNotFoundException;
import io.smallrye.mutiny.Uni;
import java.util.List;

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

    /** The configuration with its trunks (one more statement, for trunk-capable providers only). */
    public static Uni<TelephonyConfigurationDetails> details(TelephonyConfigurationRepository configurations,
            TrunkRepository trunks, long organizationId, long configurationId) {
        return find(configurations, organizationId, configurationId).chain(view -> view.configuration().provider()
                .supportsTrunks() ? trunks.list(organizationId, configurationId)
                        .map(list -> new TelephonyConfigurationDetails(view, list))
                : Uni.createFrom().item(new TelephonyConfigurationDetails(view, List.of())));
    }
}
