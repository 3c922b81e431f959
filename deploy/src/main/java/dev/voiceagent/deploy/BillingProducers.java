package dev.voiceagent.deploy;

import dev.voiceagent.application.billing.BillingUseCases;
import dev.voiceagent.application.billing.UnconfiguredBilling;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Billing: no payment provider is wired yet, so the installation has none (subscription disabled, payments 400). */
@ApplicationScoped
public class BillingProducers {

    @Produces
    @Singleton
    BillingUseCases billing() {
        return new UnconfiguredBilling();
    }
}
