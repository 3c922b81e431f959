package dev.voiceagent.application.ratelimit;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A token bucket per API key and service key, honoured across replicas: the bucket lives in the database and each
 * replica leases a few whole tokens at a time, spending them locally. Nothing is ever admitted beyond what the
 * shared bucket holds (there is no overshoot); what a lease took and did not spend within {@link #LEASE_NANOS} is
 * lost, so at most a tenth of a second's tokens per replica and key go unused (see {@link #chunk}). Requests signed in with a
 * user's token are not limited (the limit is per key).
 */
public class RateLimitService implements RateLimitUseCase {

    static final long LEASE_NANOS = 1_000_000_000L;

    private static final class Local {
        int tokens;
        long expiresAt;
        double sharedLeft;
        double perSecond;
        int burst;
    }

    private final RateLimitStore store;
    private final boolean enabled;
    private final double perSecond;
    private final int burst;
    private final LongSupplier nanoTime;
    private final ConcurrentHashMap<String, Local> local = new ConcurrentHashMap<>();

    public RateLimitService(RateLimitStore store, boolean enabled, double perSecond, int burst, LongSupplier nanoTime) {
        this.store = store;
        this.enabled = enabled;
        this.perSecond = perSecond;
        this.burst = burst;
        this.nanoTime = nanoTime;
    }

    @Override
    public Uni<Decision> admit(Principal principal) {
        if (!enabled || principal.keyId() == null) {
            return Uni.createFrom().nullItem();
        }
        String key = principal.keyId();
        Local cached = local.computeIfAbsent(key, k -> new Local());
        synchronized (cached) {
            if (cached.tokens > 0 && nanoTime.getAsLong() < cached.expiresAt) {
                cached.tokens--;
                return Uni.createFrom().item(decision(true, cached));
            }
        }
        int want = cached.burst > 0 ? chunk(cached.perSecond, cached.burst) : chunk(perSecond, burst);
        return store.lease(key, principal.organizationId(), perSecond, burst, want).map(lease -> {
            synchronized (cached) {
                cached.perSecond = lease.perSecond();
                cached.burst = lease.burst();
                cached.sharedLeft = lease.left();
                if (lease.granted() <= 0) {
                    return decision(false, cached);
                }
                cached.tokens = lease.granted() - 1;
                cached.expiresAt = nanoTime.getAsLong() + LEASE_NANOS;
                return decision(true, cached);
            }
        });
    }

    /**
     * Tokens a lease asks for: a tenth of a second's worth, at most a quarter of the burst, at least one (a slow key
     * leases every request; a fast one about ten times a second).
     */
    static int chunk(double perSecond, int burst) {
        return (int) Math.max(1, Math.min(burst / 4.0, Math.floor(perSecond / 10)));
    }

    private static Decision decision(boolean allowed, Local l) {
        double rate = l.perSecond > 0 ? l.perSecond : 1;
        int remaining = (int) Math.max(0, Math.floor(l.sharedLeft) + l.tokens);
        long reset = (long) Math.ceil(Math.max(0, l.burst - l.sharedLeft) / rate);
        long retryAfter = allowed ? 0 : Math.max(1, (long) Math.ceil((1 - l.sharedLeft) / rate));
        return new Decision(allowed, l.burst, remaining, reset, retryAfter, l.perSecond);
    }
}
