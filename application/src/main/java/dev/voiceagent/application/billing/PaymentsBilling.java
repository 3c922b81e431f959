package dev.voiceagent.application.billing;

import dev.voiceagent.application.billing.BillingUseCases.Subscription;
import dev.voiceagent.application.billing.BillingUseCases.Redirect;
import dev.voiceagent.application.billing.BillingUseCases.Receipt;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.usage.CreditGate;
import dev.voiceagent.application.usage.CreditLedger;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.usage.CreditEntry;
import dev.voiceagent.domain.usage.Price;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Billing through a payment provider: hosted checkouts for subscriptions and credit purchases, the provider's
 * portal, and its notifications. A customer is made once per organization (its idempotency key is the
 * organization's); a completed credit purchase is appended to the ledger under the checkout session's id, so a
 * notification delivered twice credits once.
 */
public class PaymentsBilling implements Billing {

    /** Subscription states in which another checkout would start a second subscription. */
    static final Set<String> LIVE = Set.of("active", "trialing", "past_due");

    /**
     * @param plans          plan name to the provider's price id
     * @param creditsDefault credits bought when a purchase names none (one credit is one cent)
     */
    public record Settings(Map<String, String> plans, String defaultPlan, long creditsDefault, long creditsMin,
            long creditsMax, String successUrl, String cancelUrl, String returnUrl) {

        public Settings {
            plans = Map.copyOf(plans);
        }
    }

    private final Payments payments;
    private final BillingAccounts accounts;
    private final CreditLedger ledger;
    private final CreditGate gate;
    private final Settings settings;
    private final Clock clock;

    public PaymentsBilling(Payments payments, BillingAccounts accounts, CreditLedger ledger, CreditGate gate,
            Settings settings, Clock clock) {
        this.payments = payments;
        this.accounts = accounts;
        this.ledger = ledger;
        this.gate = gate;
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public Uni<Subscription> subscription(Principal principal) {
        return accounts.find(principal.organizationId()).map(found -> found
                .map(c -> new Subscription(true, c.status() == null ? "none" : c.status(), c.plan(),
                        c.currentPeriodEnd(), c.cancelAtPeriodEnd(), gate.enforced()))
                .orElse(new Subscription(true, "none", null, null, false, gate.enforced())));
    }

    @Override
    public Uni<Redirect> checkout(Principal principal, String plan, String successUrl, String cancelUrl) {
        String chosen = plan == null || plan.isBlank() ? settings.defaultPlan() : plan.strip();
        String price = chosen == null ? null : settings.plans().get(chosen);
        if (price == null) {
            throw new DomainRuleViolation(settings.plans().isEmpty() ? "No subscription plans are configured"
                    : "Unknown plan '" + chosen + "'; plans: " + String.join(", ", settings.plans().keySet().stream()
                            .sorted().toList()));
        }
        long org = principal.organizationId();
        return customer(org).chain(customer -> {
            if (customer.status() != null && LIVE.contains(customer.status())) {
                throw new ConflictException("The organization already has a subscription (" + customer.status()
                        + "); change it in the billing portal");
            }
            return payments.subscriptionCheckout(customer.customerId(), org, price, chosen,
                    or(successUrl, settings.successUrl()), or(cancelUrl, settings.cancelUrl()), key());
        }).map(Redirect::new);
    }

    @Override
    public Uni<Redirect> portal(Principal principal, String returnUrl) {
        return accounts.find(principal.organizationId()).chain(found -> {
            if (found.isEmpty()) {
                throw new DomainRuleViolation("The organization has no billing account yet: subscribe or buy"
                        + " credits first");
            }
            return payments.portal(found.get().customerId(), or(returnUrl, settings.returnUrl()), key());
        }).map(Redirect::new);
    }

    @Override
    public Uni<Redirect> creditPurchase(Principal principal, Long credits, String successUrl, String cancelUrl) {
        long amount = credits == null ? settings.creditsDefault() : credits;
        if (amount < settings.creditsMin() || amount > settings.creditsMax()) {
            throw new DomainRuleViolation("credits must be between " + settings.creditsMin() + " and "
                    + settings.creditsMax() + " (one credit is one cent)");
        }
        long org = principal.organizationId();
        return customer(org).chain(customer -> payments.creditCheckout(customer.customerId(), org, amount, amount,
                        Price.CURRENCY, or(successUrl, settings.successUrl()),
                        or(cancelUrl, settings.cancelUrl()), key()))
                .map(Redirect::new);
    }

    @Override
    public Uni<Receipt> receive(byte[] payload, String signature) {
        PaymentEvent event = payments.verify(payload, signature, clock.instant());
        return switch (event) {
            case PaymentEvent.Rejected r -> Uni.createFrom().failure(new DomainRuleViolation(r.reason()));
            case PaymentEvent.Ignored i -> Uni.createFrom().item(new Receipt(true, "ignored " + i.type()));
            case PaymentEvent.SubscriptionChanged s -> accounts.applySubscription(payments.provider(), s.customerId(),
                            s.subscriptionId(), s.status(), s.plan(), s.currentPeriodEnd(), s.cancelAtPeriodEnd(),
                            s.created())
                    .map(applied -> new Receipt(true, applied ? "subscription " + s.status() : "stale event"));
            case PaymentEvent.CheckoutCompleted c -> completed(c);
        };
    }

    private Uni<Receipt> completed(PaymentEvent.CheckoutCompleted c) {
        return accounts.findByCustomer(payments.provider(), c.customerId()).chain(found -> {
            if (found.isEmpty()) {
                return Uni.createFrom().item(new Receipt(true, "unknown customer"));
            }
            long org = found.get().organizationId();
            if ("subscription".equals(c.mode())) {
                return accounts.applySubscription(payments.provider(), c.customerId(), c.subscriptionId(), "active",
                        c.plan(), null, false, c.created()).map(a -> new Receipt(true, "subscription active"));
            }
            if (!c.paid() || c.credits() <= 0) {
                return Uni.createFrom().item(new Receipt(true, "not paid"));
            }
            Map<String, Object> metadata = new LinkedHashMap<>();
            metadata.put("event_id", c.eventId());
            metadata.put("checkout_session_id", c.sessionId());
            return ledger.append(new CreditLedger.Append(org, CreditEntry.Type.PURCHASE, payments.provider(),
                            c.credits(), c.amountMinor(), c.currency(), c.credits(), "credit", c.sessionId(),
                            payments.provider() + ":checkout:" + c.sessionId(), metadata))
                    .map(entry -> new Receipt(true, entry.isPresent() ? "credited " + c.credits()
                            : "already credited"));
        });
    }

    /** The organization's customer, made at the provider (once: the key is the organization's) when it has none. */
    private Uni<BillingAccounts.Customer> customer(long org) {
        return accounts.find(org).chain(found -> found.isPresent() ? Uni.createFrom().item(found.get())
                : payments.createCustomer(org, "customer-organization-" + org)
                        .chain(id -> accounts.remember(org, payments.provider(), id)));
    }

    private static String or(String given, String fallback) {
        return given == null || given.isBlank() ? fallback : given;
    }

    private static String key() {
        return UUID.randomUUID().toString();
    }
}
