package dev.voiceagent.application.shared;

/** The request collides with data that already exists (a unique e-mail, a unique number). */
public class ConflictException extends RuntimeException {

    public ConflictException(String message) {
        super(message, null, false, false);
    }
}
