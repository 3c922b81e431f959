package dev.voiceagent.domain.campaign;

import dev.voiceagent.domain.telephony.CallStatus;
import java.time.Instant;
import java.util.Optional;

/**
 * Pauses a campaign whose calls fail too often. Over the window, failures are failed, error and
 * call-initiation failures; every other final outcome counts as a success. It trips when the window
 * holds at least min_calls_in_window calls and the failure rate reaches failure_threshold.
 */
public final class CircuitBreakerPolicy {

    private CircuitBreakerPolicy() {
    }

    public record Trip(double failureRate, long calls, long failures, double threshold, int windowSeconds) {
    }

    /**
     * Where the window starts: window_seconds back from now, but never before the campaign last
     * resumed (a resume starts a fresh window, so the failures that tripped it do not trip it again).
     */
    public static Instant windowStart(CircuitBreakerConfig config, Instant freshFrom, Instant now) {
        Instant start = now.minusSeconds(config.windowSeconds());
        return freshFrom != null && freshFrom.isAfter(start) ? freshFrom : start;
    }

    public static boolean countsAsFailure(CallStatus outcome) {
        return outcome.isFailure();
    }

    public static Optional<Trip> evaluate(CircuitBreakerConfig config, long calls, long failures) {
        if (config == null || !config.enabled() || calls <= 0 || failures <= 0 || calls < config.minCallsInWindow()) {
            return Optional.empty();
        }
        double rate = (double) failures / calls;
        return rate >= config.failureThreshold()
                ? Optional.of(new Trip(rate, calls, failures, config.failureThreshold(), config.windowSeconds()))
                : Optional.empty();
    }
}
