package dev.voiceagent.application.call;

/** The organization already has as many calls in progress as it may (429). */
public class ConcurrencyLimitException extends RuntimeException {

    public ConcurrencyLimitException() {
        super("Concurrent call limit reached", null, false, false);
    }
}
