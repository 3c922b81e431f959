package dev.voiceagent.application.ratelimit;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

/** Whether a request with an API key or service key may go on under the key's rate limit. */
public interface RateLimitUseCase {

    /**
     * The response headers' values (RateLimit-Limit, -Remaining, -Reset; Retry-After when refused) and whether the
     * request may go on.
     */
    record Decision(boolean allowed, int limit, int remaining, long resetSeconds, long retryAfterSeconds,
            double perSecond) {
    }

    /** Null when the request is not limited (limits off, or signed in without a key). */
    Uni<Decision> admit(Principal principal);
}
