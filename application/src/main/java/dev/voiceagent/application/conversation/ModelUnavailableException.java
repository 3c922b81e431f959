package dev.voiceagent.application.conversation;

import dev.voiceagent.application.shared.UpstreamServiceException;

/**
 * The language model gave no answer: it refused (a bad key, a bad request) or failed until its retries were spent,
 * before any of the answer came. The message is the provider's ("The language model failed: OpenAI answered 503:
 * ..."); {@code attempts} says how many requests were made. A 502 at the REST edge, like any provider's failure.
 */
public class ModelUnavailableException extends UpstreamServiceException {

    private final int attempts;

    public ModelUnavailableException(String message, int attempts) {
        super(message);
        this.attempts = attempts;
    }

    /** How many requests were made (1 when the failure was not worth another). */
    public int attempts() {
        return attempts;
    }
}
