package dev.voiceagent.application.billing;

/**
 * The billing use cases as one provider serves them: a payment provider's ({@link PaymentsBilling}) or none
 * ({@link UnconfiguredBilling}); the composition root picks one by configuration.
 */
public interface Billing extends BillingUseCases.GetSubscriptionUseCase, BillingUseCases.StartCheckoutUseCase,
        BillingUseCases.OpenBillingPortalUseCase, BillingUseCases.BuyCreditsUseCase,
        BillingUseCases.ReceivePaymentEventUseCase {
}
