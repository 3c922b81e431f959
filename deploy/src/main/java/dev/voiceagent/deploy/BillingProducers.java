package dev.voiceagent.deploy;

import dev.voiceagent.adapters.payments.StripePayments;
import dev.voiceagent.application.billing.Billing;
import dev.voiceagent.application.billing.BillingAccounts;
import dev.voiceagent.application.billing.PaymentsBilling;
import dev.voiceagent.application.billing.UnconfiguredBilling;
import dev.voiceagent.application.organization.OrganizationPreferencesRepository;
import dev.voiceagent.application.usage.CreditGate;
import dev.voiceagent.application.usage.CreditLedger;
import dev.voiceagent.application.usage.UsageRepository;
import dev.voiceagent.application.usage.UsageService;
import dev.voiceagent.domain.usage.Price;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jboss.logging.Logger;

/**
 * Metering, credits, reports and billing. The price per second is configuration (the installation's default here,
 * an organization's own in organizations.price_per_second); billing is Stripe's when its secret key is set, else
 * the installation has none (subscription disabled, payments a 400).
 */
@ApplicationScoped
public class BillingProducers {

    private static final Logger LOG = Logger.getLogger(BillingProducers.class);

    @Produces
    @Singleton
    CreditGate credits(CreditLedger ledger, VoiceAgentConfig config) {
        return new CreditGate(ledger, config.credits().enforce());
    }

    @Produces
    @Singleton
    UsageService usage(UsageRepository usage, CreditLedger ledger, OrganizationPreferencesRepository preferences,
            Clock clock, VoiceAgentConfig config) {
        // bean types: UsageUseCases and MeterUsageUseCase
        return new UsageService(usage, ledger, preferences, Price.parse(config.usage().pricePerSecond().orElse(null)),
                clock);
    }

    @Produces
    @Singleton
    Billing billing(VoiceAgentConfig config, BillingAccounts accounts, CreditLedger ledger, CreditGate gate,
            Clock clock) {
        VoiceAgentConfig.Billing billing = config.billing();
        VoiceAgentConfig.Billing.Stripe settings = billing.stripe();
        Optional<String> secretKey = settings.secretKey().filter(k -> !k.isBlank());
        if (secretKey.isEmpty()) {
            return new UnconfiguredBilling();
        }
        String webhookSecret = settings.webhookSecret().filter(k -> !k.isBlank()).orElseThrow(() ->
                new IllegalStateException("voiceagent.billing.stripe.webhook-secret is required with a Stripe"
                        + " secret key: notifications could not be verified"));
        Map<String, String> plans = new TreeMap<>(billing.plans());
        LOG.infof("billing: Stripe at %s, plans %s", settings.apiBase(), plans.keySet());
        StripePayments stripe = new StripePayments(new StripePayments.Settings(secretKey.get(), webhookSecret,
                settings.apiBase(), settings.timeout(), Duration.ofMinutes(5)));
        VoiceAgentConfig.Billing.BillingCredits credits = billing.credits();
        return new PaymentsBilling(stripe, accounts, ledger, gate, new PaymentsBilling.Settings(plans,
                billing.defaultPlan().orElse(plans.size() == 1 ? plans.keySet().iterator().next() : null),
                credits.defaultAmount(), credits.min(), credits.max(), billing.successUrl(), billing.cancelUrl(),
                billing.returnUrl()), clock);
    }
}
