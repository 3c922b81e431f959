package dev.voiceagent.domain.account;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A person who signs in. A local user has a password hash; the organization is the one the user
 * works in (the one created at sign-up).
 */
public record User(
        Long id,
        EmailAddress email,
        String name,
        String providerId,
        Long organizationId,
        String passwordHash,
        boolean superuser,
        Instant createdAt) {

    public User {
        Objects.requireNonNull(email, "email");
        Objects.requireNonNull(providerId, "providerId");
        Objects.requireNonNull(createdAt, "createdAt");
        if (name != null && name.isBlank()) {
            name = null;
        }
    }

    /** A user signing up with email and password; ids are assigned when stored. */
    public static User signUp(EmailAddress email, String name, String passwordHash, Instant now, UUID randomId) {
        String providerId = "oss_" + now.getEpochSecond() + "_" + randomId;
        return new User(null, email, name, providerId, null, Objects.requireNonNull(passwordHash), false, now);
    }

    public User withOrganization(long organizationId) {
        return new User(id, email, name, providerId, organizationId, passwordHash, superuser, createdAt);
    }
}
