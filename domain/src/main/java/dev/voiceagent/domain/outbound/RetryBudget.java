package dev.voiceagent.domain.outbound;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * How long a call waits for a provider that failed (a model's request, a speech socket, a sentence's request) before
 * it is given up: at most {@code attempts} tries in all, the first included; before the next try a wait that starts
 * at {@code backoff} and doubles after each failure, with jitter (between half of it and all of it, so that the calls
 * a provider dropped at once do not all come back at the same moment); and no try starts later than {@code budget}
 * after the first failure. A provider's Retry-After is honoured when it fits in what is left of the budget (the wait
 * is then the longer of the two); one that does not fit ends the tries at once, since the provider said it will not
 * serve within it (a fallback can take over sooner). The backoff alone is cut to what is left of the budget.
 *
 * <p>The rule is the adapters' one arithmetic; each adapter decides what a failure is and measures the time.
 *
 * @param attempts the most tries, the first included (at least 1)
 * @param backoff the wait before the second try
 * @param budget how long after the first failure a try may still start
 */
public record RetryBudget(int attempts, Duration backoff, Duration budget) {

    /** The doubling stops growing here (a longer wait never fits a call's budget anyway). */
    private static final int MAX_DOUBLINGS = 16;

    public RetryBudget {
        if (attempts < 1) {
            throw new IllegalArgumentException("a retry budget needs at least one attempt, not " + attempts);
        }
        if (backoff == null || backoff.isNegative() || budget == null || budget.isNegative()) {
            throw new IllegalArgumentException("a retry budget's backoff and budget are durations of zero or more");
        }
    }

    /** One try, no retry. */
    public static RetryBudget none() {
        return new RetryBudget(1, Duration.ZERO, Duration.ZERO);
    }

    /**
     * The wait before the next try, or empty when the failure is final.
     *
     * @param failed tries that failed so far (1 after the first failure)
     * @param sinceFirstFailure how long ago the first of them failed
     * @param retryAfter what the provider asked for (its Retry-After), or null
     * @param random a number in [0, 1): the jitter
     */
    public Optional<Duration> next(int failed, Duration sinceFirstFailure, Duration retryAfter, double random) {
        if (failed < 1) {
            throw new IllegalArgumentException("nothing failed yet");
        }
        if (failed >= attempts) {
            return Optional.empty();
        }
        Duration left = budget.minus(sinceFirstFailure.isNegative() ? Duration.ZERO : sinceFirstFailure);
        if (left.isNegative() || left.isZero()) {
            return Optional.empty();
        }
        Duration jittered = jittered(failed, random);
        if (retryAfter != null && !retryAfter.isNegative()) {
            if (retryAfter.compareTo(left) > 0) {
                return Optional.empty(); // the provider will not serve within the budget
            }
            return Optional.of(retryAfter.compareTo(jittered) >= 0 ? retryAfter : min(jittered, left));
        }
        return Optional.of(min(jittered, left));
    }

    /** The backoff before try {@code failed + 1}: doubled after each failure, between half of it and all of it. */
    Duration jittered(int failed, double random) {
        long base = backoff.toNanos() << Math.min(MAX_DOUBLINGS, failed - 1);
        double share = 0.5 + 0.5 * Math.max(0, Math.min(1, random));
        return Duration.ofNanos((long) (base * share));
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /**
     * An HTTP Retry-After header (RFC 9110 §10.2.3): a number of seconds, or a date (then the time from
     * {@code now} to it, never negative); null when absent or neither.
     */
    public static Duration retryAfter(String header, Instant now) {
        if (header == null || header.isBlank()) {
            return null;
        }
        String value = header.strip();
        try {
            long seconds = Long.parseLong(value);
            return seconds < 0 ? null : Duration.ofSeconds(seconds);
        } catch (NumberFormatException notSeconds) {
            // perhaps a date
        }
        try {
            Duration until = Duration.between(now, ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME)
                    .toInstant());
            return until.isNegative() ? Duration.ZERO : until;
        } catch (DateTimeParseException notADate) {
            return null;
        }
    }

    /**
     * Whether an HTTP status says the provider may serve the same request if asked again: a time-out (408), too many
     * requests (429), or a server's failure (5xx but 501, a method the server will never have). Anything else (a
     * refused key, a bad request) fails the same way every time.
     */
    public static boolean transientStatus(int status) {
        return status == 408 || status == 429 || status >= 500 && status <= 599 && status != 501;
    }
}
