package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.workflow.SecretMasking;
import io.smallrye.mutiny.Uni;
import java.util.LinkedHashMap;
import java.util.Map;

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

    /** The provider's secret fields shown with all but their last 4 characters masked. */
    public static Map<String, Object> masked(Provider provider, Map<String, Object> fields) {
        Map<String, Object> out = new LinkedHashMap<>(fields);
        for (String secret : provider.sensitiveFields()) {
            if (out.get(secret) instanceof String s && !s.isEmpty()) {
                out.put(secret, SecretMasking.mask(s));
            }
        }
        return out;
    }

    /** Incoming fields where a secret sent back exactly as it was shown keeps the stored value. */
    public static Map<String, Object> restored(Provider provider, Map<String, Object> incoming,
            Map<String, Object> stored) {
        Map<String, Object> out = new LinkedHashMap<>(incoming);
        for (String secret : provider.sensitiveFields()) {
            if (incoming.get(secret) instanceof String s && stored.get(secret) instanceof String old
                    && SecretMasking.mask(old).equals(s)) {
                out.put(secret, old);
            }
        }
        return out;
    }
}
