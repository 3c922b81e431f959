package dev.voiceagent.domain.apikey;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/** An organization-scoped credential for programs. Archiving revokes it; reactivating restores it. */
public record ApiKey(
        Long id,
        long organizationId,
        String name,
        String keyPrefix,
        String keyHash,
        boolean active,
        Long createdBy,
        Instant createdAt,
        Instant lastUsedAt,
        Instant archivedAt) {

    /** last_used_at is kept current to this resolution, so a busy key costs no write per request. */
    public static final Duration LAST_USED_RESOLUTION = Duration.ofMinutes(1);
    public static final int MAX_NAME_LENGTH = 255;

    public ApiKey {
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        Objects.requireNonNull(keyHash, "keyHash");
        Objects.requireNonNull(createdAt, "createdAt");
        name = checkName(name);
    }

    public static ApiKey issue(long organizationId, long createdBy, String name, ApiKeySecret secret, Instant now) {
        return new ApiKey(null, organizationId, name, secret.displayPrefix(), secret.hash(), true, createdBy, now, null, null);
    }

    private static String checkName(String name) {
        if (name == null || name.isBlank()) {
            throw new DomainRuleViolation("API key name must not be blank");
        }
        String stripped = name.strip();
        if (stripped.length() > MAX_NAME_LENGTH) {
            throw new DomainRuleViolation("API key name must be at most " + MAX_NAME_LENGTH + " characters");
        }
        return stripped;
    }

    public boolean usable() {
        return active && archivedAt == null;
    }

    public ApiKey archive(Instant now) {
        if (!usable()) {
            return this; // idempotent: keep the first archive time
        }
        return new ApiKey(id, organizationId, name, keyPrefix, keyHash, false, createdBy, createdAt, lastUsedAt, now);
    }

    public ApiKey reactivate() {
        return new ApiKey(id, organizationId, name, keyPrefix, keyHash, true, createdBy, createdAt, lastUsedAt, null);
    }

    /** Whether a use at {@code now} should be written back (at most once per resolution period). */
    public boolean lastUseIsStale(Instant now) {
        return lastUsedAt == null || !lastUsedAt.plus(LAST_USED_RESOLUTION).isAfter(now);
    }
}
