package dev.voiceagent.domain.shared;

/**
 * A business rule of the domain was broken by the caller's input (a 400 at the edge, never a 500).
 * Thrown by value objects and aggregates when an invariant would not hold.
 */
public class DomainRuleViolation extends RuntimeException {

    public DomainRuleViolation(String message) {
        super(message);
    }
}
