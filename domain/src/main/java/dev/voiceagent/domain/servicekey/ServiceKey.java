package dev.voiceagent.domain.servicekey;

import dev.voiceagent.domain.apikey.ApiKeySecret;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A machine credential (a voice runtime, a CI pipeline): it authenticates like an API key, scoped to
 * its organization, until it expires or is archived. Only its hash and display prefix are kept.
 */
public record ServiceKey(Long id, long organizationId, String name, String keyPrefix, String keyHash, boolean active,
        long createdBy, Instant createdAt, Instant lastUsedAt, Instant expiresAt, Instant archivedAt) {

    public static final int DEFAULT_DAYS = 90;
    public static final int MAX_DAYS = 365;
    public static final int MAX_NAME_LENGTH = 255;

    public ServiceKey {
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        Objects.requireNonNull(keyHash, "keyHash");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
        if (name == null || name.isBlank() || name.strip().length() > MAX_NAME_LENGTH) {
            throw new DomainRuleViolation("Service key name must be 1 to " + MAX_NAME_LENGTH + " characters");
        }
        name = name.strip();
    }

    public static ServiceKey issue(long organizationId, long createdBy, String name, Integer expiresInDays,
            ApiKeySecret secret, Instant now) {
        int days = expiresInDays == null ? DEFAULT_DAYS : expiresInDays;
        if (days < 1 || days > MAX_DAYS) {
            throw new DomainRuleViolation("expires_in_days must be between 1 and " + MAX_DAYS);
        }
        if (!secret.serviceKey()) {
            throw new IllegalArgumentException("not a service key secret");
        }
        return new ServiceKey(null, organizationId, name, secret.displayPrefix(), secret.hash(), true, createdBy, now, null,
                now.plus(Duration.ofDays(days)), null);
    }

    public boolean expired(Instant now) {
        return !now.isBefore(expiresAt);
    }

    public boolean usable(Instant now) {
        return active && archivedAt == null && !expired(now);
    }

    public ServiceKey archive(Instant now) {
        if (archivedAt != null) {
            return this;
        }
        return new ServiceKey(id, organizationId, name, keyPrefix, keyHash, false, createdBy, createdAt, lastUsedAt,
                expiresAt, now);
    }

    /** An expired key stays expired: reactivating it is refused. */
    public ServiceKey reactivate(Instant now) {
        if (expired(now)) {
            throw new DomainRuleViolation("An expired service key cannot be reactivated; create a new one");
        }
        return new ServiceKey(id, organizationId, name, keyPrefix, keyHash, true, createdBy, createdAt, lastUsedAt,
                expiresAt, null);
    }
}
