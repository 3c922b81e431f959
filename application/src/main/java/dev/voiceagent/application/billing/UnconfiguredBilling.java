package dev.voiceagent.application.billing;

import dev.voiceagent.application.billing.BillingUseCases.Subscription;
import dev.voiceagent.application.billing.BillingUseCases.Redirect;
import dev.voiceagent.application.billing.BillingUseCases.Receipt;
import static dev.voiceagent.application.billing.BillingUseCases.NOT_CONFIGURED;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;

/**
 * Billing on an installation without a payment provider (the self-hosted default): no subscription, no checkout,
 * no portal, no credit purchase, each refused with the same clear reason. The payment provider's adapter replaces
 * it when one is configured.
 */
public class UnconfiguredBilling implements Billing {

    @Override
    public Uni<Subscription> subscription(Principal principal) {
        return Uni.createFrom().item(new Subscription(false, "not_configured", null, null, false, false));
    }

    @Override
    public Uni<Redirect> checkout(Principal principal, String plan, String successUrl, String cancelUrl) {
        return refused();
    }

    @Override
    public Uni<Redirect> portal(Principal principal, String returnUrl) {
        return refused();
    }

    @Override
    public Uni<Redirect> creditPurchase(Principal principal, Long credits, String successUrl, String cancelUrl) {
        return refused();
    }

    @Override
    public Uni<Receipt> receive(byte[] payload, String signature) {
        return refused();
    }

    private static <T> Uni<T> refused() {
        return Uni.createFrom().failure(new DomainRuleViolation(NOT_CONFIGURED));
    }
}
