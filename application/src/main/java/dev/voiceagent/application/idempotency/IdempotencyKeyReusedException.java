package dev.voiceagent.application.idempotency;

/** The Idempotency-Key was used before for a different request (422). */
public class IdempotencyKeyReusedException extends RuntimeException {

    public IdempotencyKeyReusedException(String message) {
        super(message);
    }
}
