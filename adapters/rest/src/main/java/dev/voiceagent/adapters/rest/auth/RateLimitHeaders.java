package dev.voiceagent.adapters.rest.auth;

import dev.voiceagent.adapters.rest.shared.ErrorMapper;
import dev.voiceagent.application.ratelimit.RateLimitUseCase.Decision;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.Locale;

/**
 * The IETF RateLimit header fields (limit: the bucket's size; remaining: tokens left; reset: seconds until the
 * bucket is full again) and, on a refusal, a 429 with Retry-After: distinct in its detail from the 429 of the
 * concurrent-call limit.
 */
final class RateLimitHeaders {

    private RateLimitHeaders() {
    }

    static void add(MultivaluedMap<String, Object> headers, Decision d) {
        headers.putSingle("RateLimit-Limit", String.valueOf(d.limit()));
        headers.putSingle("RateLimit-Remaining", String.valueOf(d.remaining()));
        headers.putSingle("RateLimit-Reset", String.valueOf(d.resetSeconds()));
    }

    static Response refused(Decision d) {
        Response detail = ErrorMapper.detail(429, String.format(Locale.ROOT, "Rate limit exceeded for this key:"
                + " %s requests per second with bursts of %d; retry after %d s", rate(d.perSecond()), d.limit(),
                d.retryAfterSeconds()));
        Response.ResponseBuilder out = Response.fromResponse(detail).header("Retry-After", d.retryAfterSeconds());
        out.header("RateLimit-Limit", d.limit()).header("RateLimit-Remaining", d.remaining())
                .header("RateLimit-Reset", d.resetSeconds());
        return out.build();
    }

    private static String rate(double perSecond) {
        return perSecond == Math.rint(perSecond) ? String.valueOf((long) perSecond) : String.valueOf(perSecond);
    }
}
