package dev.voiceagent.application.billing;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;
import java.time.Instant;

/**
 * Subscriptions and credit purchases. An installation without a payment provider (the self-hosted default) has no
 * billing: the subscription says so and every payment request is a 400 naming it.
 */
public interface BillingUseCases {

    String NOT_CONFIGURED = "Billing is not configured on this installation";

    /** The organization's subscription as the installation knows it. */
    record Subscription(boolean enabled, String status, String plan, Instant currentPeriodEnd,
            boolean cancelAtPeriodEnd, boolean creditsEnforced) {
    }

    /** Where the browser goes next (a payment provider's hosted page). */
    record Redirect(String url) {
    }

    interface GetSubscriptionUseCase {

        Uni<Subscription> subscription(Principal principal);
    }

    interface StartCheckoutUseCase {

        Uni<Redirect> checkout(Principal principal, String plan, String successUrl, String cancelUrl);
    }

    interface OpenBillingPortalUseCase {

        Uni<Redirect> portal(Principal principal, String returnUrl);
    }

    interface BuyCreditsUseCase {

        Uni<Redirect> creditPurchase(Principal principal, Long credits, String successUrl, String cancelUrl);
    }

    /** What became of a payment provider's notification. */
    record Receipt(boolean accepted, String outcome) {
    }

    interface ReceivePaymentEventUseCase {

        /**
         * A notification from the payment provider: verified, then applied at most once (a completed credit purchase
         * credits the organization once however often it is delivered). A notification that fails verification is a
         * 400 with the reason.
         */
        Uni<Receipt> receive(byte[] payload, String signature);
    }
}
