package dev.voiceagent.application.shared;

/** The organization's credit balance is exhausted and the installation enforces credits (402). */
public class PaymentRequiredException extends RuntimeException {

    public PaymentRequiredException(String message) {
        super(message, null, false, false);
    }
}
