package dev.voiceagent.application.shared;

/** An outside service (a model provider, a payment provider) failed or refused: a 502 carrying its message. */
public class UpstreamServiceException extends RuntimeException {

    public UpstreamServiceException(String message) {
        super(message, null, false, false);
    }
}
