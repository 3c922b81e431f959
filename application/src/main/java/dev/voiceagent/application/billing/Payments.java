package dev.voiceagent.application.billing;

import io.smallrye.mutiny.Uni;
import java.time.Instant;

/**
 * Out-port: a payment provider's hosted pages and its signed event notifications. Every create carries an
 * idempotency key, so a retried request never makes a second customer, session or charge.
 */
public interface Payments {

    /** The provider's name as stored beside its customer ids ("stripe"). */
    String provider();

    /** A customer for the organization; the provider's id. */
    Uni<String> createCustomer(long organizationId, String idempotencyKey);

    /** A hosted checkout of a subscription to the plan's price. */
    Uni<String> subscriptionCheckout(String customerId, long organizationId, String priceId, String plan,
            String successUrl, String cancelUrl, String idempotencyKey);

    /** A hosted checkout of a one-off purchase of {@code credits} for {@code amountMinor} in the currency. */
    Uni<String> creditCheckout(String customerId, long organizationId, long credits, long amountMinor,
            String currency, String successUrl, String cancelUrl, String idempotencyKey);

    /** A session of the provider's billing portal for the customer. */
    Uni<String> portal(String customerId, String returnUrl, String idempotencyKey);

    /**
     * The event a notification carries, once its signature is verified against the payload and the time (a
     * {@link PaymentEvent.Rejected} otherwise, never an exception).
     */
    PaymentEvent verify(byte[] payload, String signature, Instant now);
}
