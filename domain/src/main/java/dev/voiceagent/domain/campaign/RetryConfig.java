package dev.voiceagent.domain.campaign;

import dev.voiceagent.domain.shared.DomainRuleViolation;

/**
 * When and how often a contact is called again after busy, no-answer or voicemail.
 * Ranges as in the reference: max_retries 0..10, retry_delay_seconds 30..3600.
 */
public record RetryConfig(
        boolean enabled,
        int maxRetries,
        int retryDelaySeconds,
        boolean retryOnBusy,
        boolean retryOnNoAnswer,
        boolean retryOnVoicemail) {

    public static final int MAX_RETRIES_LIMIT = 10;
    public static final int MIN_DELAY_SECONDS = 30;
    public static final int MAX_DELAY_SECONDS = 3600;

    /** Used when a campaign is created without a retry block (the reference's constant). */
    public static final RetryConfig DEFAULT = new RetryConfig(true, 1, 120, true, true, false);

    public RetryConfig {
        if (maxRetries < 0 || maxRetries > MAX_RETRIES_LIMIT) {
            throw new DomainRuleViolation("max_retries must be between 0 and " + MAX_RETRIES_LIMIT);
        }
        if (retryDelaySeconds < MIN_DELAY_SECONDS || retryDelaySeconds > MAX_DELAY_SECONDS) {
            throw new DomainRuleViolation(
                    "retry_delay_seconds must be between " + MIN_DELAY_SECONDS + " and " + MAX_DELAY_SECONDS);
        }
    }
}
