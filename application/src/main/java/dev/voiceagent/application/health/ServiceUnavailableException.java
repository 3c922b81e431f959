package dev.voiceagent.application.health;

/** A figure the caller relies on cannot be produced now (503); never answered with a made-up value. */
public class ServiceUnavailableException extends RuntimeException {

    public ServiceUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public ServiceUnavailableException(String message) {
        super(message);
    }
}
