package dev.voiceagent.application.ratelimit;

import io.smallrye.mutiny.Uni;

/**
 * Out-port: the token buckets shared by every replica. A lease takes up to {@code want} whole tokens from a key's
 * bucket (refilled at the rate since it was last touched, capped at the burst) in one atomic step, with the
 * organization's own rate and burst when it has them, else the given defaults.
 */
public interface RateLimitStore {

    /** What a lease got: tokens granted, tokens left in the shared bucket, and the bucket's rate and burst. */
    record Lease(int granted, double left, double perSecond, int burst) {
    }

    Uni<Lease> lease(String keyId, long organizationId, double defaultPerSecond, int defaultBurst, int want);
}
