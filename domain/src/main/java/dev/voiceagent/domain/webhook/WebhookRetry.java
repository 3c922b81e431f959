package dev.voiceagent.domain.webhook;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * When a failed delivery is tried again: network errors, 408, 429 and 5xx are retried on a growing schedule
 * (about 24 hours in all) with ±20 % jitter, a Retry-After being honoured when it asks for longer; any other answer,
 * and the end of the schedule, is final (dead letter).
 */
public final class WebhookRetry {

    /** The waits after attempts 1, 2, ...: 5 s, 1 min, 5 min, 30 min, 2 h, 5 h, 8 h, 8 h (23 h 36 min). */
    public static final List<Duration> SCHEDULE = List.of(Duration.ofSeconds(5), Duration.ofMinutes(1),
            Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(2), Duration.ofHours(5),
            Duration.ofHours(8), Duration.ofHours(8));
    static final Duration MAX_RETRY_AFTER = Duration.ofHours(8);

    private WebhookRetry() {
    }

    public static boolean retryable(Integer status) {
        return status == null || status == 408 || status == 429 || status >= 500;
    }

    /**
     * @param attemptsMade attempts so far, this one included (1 after the first)
     * @param status       the answer's status, null for a network error or a time-out
     * @param retryAfter   the answer's Retry-After, if any
     * @param random       a number in [0, 1) for the jitter
     */
    public static Optional<Duration> after(int attemptsMade, Integer status, Duration retryAfter, double random) {
        if (!retryable(status) || attemptsMade < 1 || attemptsMade > SCHEDULE.size()) {
            return Optional.empty();
        }
        long base = SCHEDULE.get(attemptsMade - 1).toMillis();
        Duration wait = Duration.ofMillis(Math.round(base * (0.8 + 0.4 * random)));
        if (retryAfter != null && retryAfter.compareTo(wait) > 0) {
            wait = retryAfter.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : retryAfter;
        }
        return Optional.of(wait);
    }
}
