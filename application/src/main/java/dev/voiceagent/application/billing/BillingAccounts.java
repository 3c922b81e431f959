package dev.voiceagent.application.billing;

import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.Optional;

/** Out-port: each organization's customer at the payment provider and its subscription as last reported. */
public interface BillingAccounts {

    record Customer(long organizationId, String provider, String customerId, String subscriptionId, String status,
            String plan, Instant currentPeriodEnd, boolean cancelAtPeriodEnd) {
    }

    Uni<Optional<Customer>> find(long organizationId);

    Uni<Optional<Customer>> findByCustomer(String provider, String customerId);

    /** Stores the customer unless the organization has one already; the one stored. */
    Uni<Customer> remember(long organizationId, String provider, String customerId);

    /** Applies a subscription state unless a newer event was applied already; whether it was applied. */
    Uni<Boolean> applySubscription(String provider, String customerId, String subscriptionId, String status,
            String plan, Instant currentPeriodEnd, boolean cancelAtPeriodEnd, Instant eventCreated);
}
