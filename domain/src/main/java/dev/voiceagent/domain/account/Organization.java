package dev.voiceagent.domain.account;

import java.time.Instant;
import java.util.Objects;

/** The tenant: every resource belongs to exactly one organization. */
public record Organization(Long id, String providerId, Instant createdAt) {

    public Organization {
        Objects.requireNonNull(providerId, "providerId");
        Objects.requireNonNull(createdAt, "createdAt");
    }

    /** The organization created for a user who signs up locally. */
    public static Organization forNewUser(String userProviderId, Instant now) {
        return new Organization(null, "org_" + userProviderId, now);
    }
}
