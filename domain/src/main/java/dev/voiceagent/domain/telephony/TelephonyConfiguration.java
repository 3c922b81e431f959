package dev.voiceagent.domain.telephony;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Instant;
import java.util.Objects;

/** A provider account of an organization: its name, credentials and whether it places outbound calls by default. */
public record TelephonyConfiguration(
        Long id,
        long organizationId,
        String name,
        ProviderConfiguration configuration,
        boolean defaultOutbound,
        boolean active,
        Instant inactiveSince,
        String inactiveReason,
        Instant createdAt,
        Instant updatedAt) {

    public static final int MAX_NAME_LENGTH = 64;

    public TelephonyConfiguration {
        Objects.requireNonNull(configuration, "configuration");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        name = checkName(name);
    }

    public static String checkName(String name) {
        String stripped = name == null ? "" : name.strip();
        if (stripped.isEmpty() || stripped.length() > MAX_NAME_LENGTH) {
            throw new DomainRuleViolation("name must be between 1 and " + MAX_NAME_LENGTH + " characters");
        }
        return stripped;
    }

    public static TelephonyConfiguration create(long organizationId, String name, ProviderConfiguration configuration,
            boolean defaultOutbound, Instant now) {
        return new TelephonyConfiguration(null, organizationId, name, configuration, defaultOutbound, true, null, null,
                now, now);
    }

    public Provider provider() {
        return configuration.provider();
    }

    /** New name and/or credentials; the provider itself cannot change. */
    public TelephonyConfiguration edited(String newName, ProviderConfiguration newConfiguration, Instant now) {
        if (newConfiguration != null && newConfiguration.provider() != provider()) {
            throw new DomainRuleViolation("The provider of a configuration cannot change (it is "
                    + provider().wireName() + ")");
        }
        return new TelephonyConfiguration(id, organizationId, newName == null ? name : newName,
                newConfiguration == null ? configuration : newConfiguration, defaultOutbound, active, inactiveSince,
                inactiveReason, createdAt, now);
    }

    public TelephonyConfiguration reactivated(Instant now) {
        return new TelephonyConfiguration(id, organizationId, name, configuration, defaultOutbound, true, null, null,
                createdAt, now);
    }
}
