package dev.voiceagent.domain.campaign;

import dev.voiceagent.domain.shared.DomainRuleViolation;

/**
 * Pauses a campaign when the failure rate of its calls within a sliding window crosses a threshold.
 * failure_threshold is a fraction 0.0..1.0; window_seconds 30..600; min_calls_in_window 1..100.
 */
public record CircuitBreakerConfig(boolean enabled, double failureThreshold, int windowSeconds, int minCallsInWindow) {

    /**
     * What a campaign stored without a breaker has, and what the API reports for it. Unlike the
     * reference (which reports "disabled" but runs an enabled breaker), reporting and behaviour agree.
     */
    public static final CircuitBreakerConfig NONE = new CircuitBreakerConfig(false, 0.5, 120, 5);

    public CircuitBreakerConfig {
        if (Double.isNaN(failureThreshold) || failureThreshold < 0.0 || failureThreshold > 1.0) {
            throw new DomainRuleViolation("failure_threshold must be between 0.0 and 1.0");
        }
        if (windowSeconds < 30 || windowSeconds > 600) {
            throw new DomainRuleViolation("window_seconds must be between 30 and 600");
        }
        if (minCallsInWindow < 1 || minCallsInWindow > 100) {
            throw new DomainRuleViolation("min_calls_in_window must be between 1 and 100");
        }
    }
}
