package dev.voiceagent.application.shared;

/** Credentials are missing, invalid, expired or archived. */
public class AuthenticationException extends RuntimeException {

    public AuthenticationException(String message) {
        super(message, null, false, false);
    }
}
