package dev.voiceagent.application.embed;

/** A burst above a rate limit: a 429. */
public class TooManyRequestsException extends RuntimeException {

    public TooManyRequestsException(String message) {
        super(message, null, false, false);
    }
}
