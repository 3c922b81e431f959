package dev.voiceagent.application.call;

/** The provider refused or could not be reached; the message is safe to show to the caller. */
public class CallGatewayException extends RuntimeException {

    public CallGatewayException(String message, Throwable cause) {
        super(message, cause);
    }
}
