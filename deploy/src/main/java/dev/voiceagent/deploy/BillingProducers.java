package dev.voiceagent.deploy;

import dev.voiceagent.adapters.payments.StripePayments;
import dev.voiceagent.application.billing.BillingAccounts;
import dev.voiceagent.application.billing.BillingUseCases;
import dev.voiceagent.application.billing.PaymentsBilling;
import dev.voiceagent.application.billing.UnconfiguredBilling;
import dev.voiceagent.application.organization.OrganizationPreferencesRepository;
import dev.voiceagent.application.report.ReportRepository;
import dev.voiceagent.application.report.ReportService;
import dev.voiceagent.application.usage.CreditGate;
import dev.voiceagent.application.usage.CreditLedger;
import dev.voiceagent.application.usage.UsageRepository;
import dev.voiceagent.application.usage.UsageService;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.usage.Price;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Metering, credits, reports and billing. The price per second is configuration (the installation's default here,
 * an organization's own in organizations.price_per_second); billing is Stripe's when its secret key is set, else
 * the installation has none (subscription disabled, payments a 400).
 */
@ApplicationScoped
public class BillingProducers {

    private static final Logger LOG = Logger.getLogger(BillingProducers.class);
    static final String PLANS = "voiceagent.billing.plans.";

    @Produces
    @Singleton
    CreditGate credits(CreditLedger ledger,
            @ConfigProperty(name = "voiceagent.credits.enforce", defaultValue = "false") boolean enforce) {
        return new CreditGate(ledger, enforce);
    }

    @Produces
    @Singleton
    UsageService usage(UsageRepository usage, CreditLedger ledger, OrganizationPreferencesRepository preferences,
            Clock clock, @ConfigProperty(name = "voiceagent.usage.price-per-second") Optional<String> price) {
        // bean types: UsageUseCases and MeterUsageUseCase
        return new UsageService(usage, ledger, preferences, Price.parse(price.orElse(null)), clock);
    }

    @Produces
    @Singleton
    ReportService reports(ReportRepository reports, WorkflowRepository workflows) {
        return new ReportService(reports, workflows);
    }

    @Produces
    @Singleton
    BillingUseCases billing(Config config, BillingAccounts accounts, CreditLedger ledger, CreditGate gate, Clock clock,
            @ConfigProperty(name = "voiceagent.billing.stripe.secret-key") Optional<String> secretKey,
            @ConfigProperty(name = "voiceagent.billing.stripe.webhook-secret") Optional<String> webhookSecret,
            @ConfigProperty(name = "voiceagent.billing.stripe.api-base", defaultValue = "https://api.stripe.com")
            URI apiBase,
            @ConfigProperty(name = "voiceagent.billing.stripe.timeout", defaultValue = "PT10S") Duration timeout,
            @ConfigProperty(name = "voiceagent.billing.default-plan") Optional<String> defaultPlan,
            @ConfigProperty(name = "voiceagent.billing.credits.default", defaultValue = "1000") long creditsDefault,
            @ConfigProperty(name = "voiceagent.billing.credits.min", defaultValue = "50") long creditsMin,
            @ConfigProperty(name = "voiceagent.billing.credits.max", defaultValue = "1000000") long creditsMax,
            @ConfigProperty(name = "voiceagent.billing.success-url") String successUrl,
            @ConfigProperty(name = "voiceagent.billing.cancel-url") String cancelUrl,
            @ConfigProperty(name = "voiceagent.billing.return-url") String returnUrl) {
        if (secretKey.filter(k -> !k.isBlank()).isEmpty()) {
            return new UnconfiguredBilling();
        }
        if (webhookSecret.filter(k -> !k.isBlank()).isEmpty()) {
            throw new IllegalStateException("voiceagent.billing.stripe.webhook-secret is required with a Stripe"
                    + " secret key: notifications could not be verified");
        }
        Map<String, String> plans = new TreeMap<>();
        for (String name : config.getPropertyNames()) {
            if (name.startsWith(PLANS)) {
                config.getOptionalValue(name, String.class).ifPresent(v -> plans.put(name.substring(PLANS.length()), v));
            }
        }
        LOG.infof("billing: Stripe at %s, plans %s", apiBase, plans.keySet());
        StripePayments stripe = new StripePayments(new StripePayments.Settings(secretKey.get(), webhookSecret.get(),
                apiBase, timeout, Duration.ofMinutes(5)));
        return new PaymentsBilling(stripe, accounts, ledger, gate, new PaymentsBilling.Settings(plans,
                defaultPlan.orElse(plans.size() == 1 ? plans.keySet().iterator().next() : null), creditsDefault,
                creditsMin, creditsMax, successUrl, cancelUrl, returnUrl), clock);
    }
}
