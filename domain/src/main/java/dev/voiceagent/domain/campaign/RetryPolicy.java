package dev.voiceagent.domain.campaign;

import dev.voiceagent.domain.telephony.CallStatus;
import java.time.Duration;
import java.util.Optional;

/**
 * Whether a contact is called again after an attempt. Busy, no-answer and voicemail are retried when
 * their flag is on (the reference never retried voicemail); failed, error and canceled are not;
 * completed is done. max_retries is the number of extra attempts, each after retry_delay_seconds.
 */
public final class RetryPolicy {

    private RetryPolicy() {
    }

    /** @param attemptNumber the attempt that just ended, the first being 1 */
    public static Optional<Duration> retryAfter(RetryConfig config, CallStatus outcome, int attemptNumber) {
        if (!config.enabled() || attemptNumber > config.maxRetries()) {
            return Optional.empty();
        }
        boolean retry = switch (outcome) {
            case BUSY -> config.retryOnBusy();
            case NO_ANSWER -> config.retryOnNoAnswer();
            case VOICEMAIL -> config.retryOnVoicemail();
            default -> false;
        };
        return retry ? Optional.of(Duration.ofSeconds(config.retryDelaySeconds())) : Optional.empty();
    }

    /** A contact whose last attempt ended like this, with no retry left, counts in failed_rows. */
    public static boolean endsWithoutSuccess(CallStatus finalOutcome) {
        return finalOutcome != CallStatus.COMPLETED;
    }
}
