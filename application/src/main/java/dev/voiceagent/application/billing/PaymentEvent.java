package dev.voiceagent.application.billing;

import java.time.Instant;

/** What a payment provider's notification says, once verified. */
public sealed interface PaymentEvent {

    /** The signature or the payload did not check out: nothing is done, the sender is told why. */
    record Rejected(String reason) implements PaymentEvent {
    }

    /** A checkout finished: a paid credit purchase (mode payment) or a subscription that started. */
    record CheckoutCompleted(String eventId, Instant created, String sessionId, String mode, String customerId,
            String subscriptionId, long credits, Long amountMinor, String currency, boolean paid, String plan)
            implements PaymentEvent {
    }

    /** A subscription was created, changed or ended. */
    record SubscriptionChanged(String eventId, Instant created, String customerId, String subscriptionId,
            String status, String plan, Instant currentPeriodEnd, boolean cancelAtPeriodEnd) implements PaymentEvent {
    }

    /** A verified event of a type this service does not act on. */
    record Ignored(String eventId, String type) implements PaymentEvent {
    }
}
