package dev.voiceagent.adapters.postgres.billing;

import static dev.voiceagent.adapters.postgres.shared.Columns.index;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.instant;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.utc;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.application.billing.BillingAccounts;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;

/** Each organization's customer at the payment provider; subscription changes applied newest-event-wins. */
@DatabaseAccess
@ApplicationScoped
public class PostgresBillingAccounts implements BillingAccounts {

    private static final String COLUMNS = "organization_id, provider, customer_id, subscription_id,"
            + " subscription_status, plan, current_period_end, cancel_at_period_end";
    private static final int ORGANIZATION_ID = index(COLUMNS, "organization_id");
    private static final int PROVIDER = index(COLUMNS, "provider");
    private static final int CUSTOMER_ID = index(COLUMNS, "customer_id");
    private static final int SUBSCRIPTION_ID = index(COLUMNS, "subscription_id");
    private static final int SUBSCRIPTION_STATUS = index(COLUMNS, "subscription_status");
    private static final int PLAN = index(COLUMNS, "plan");
    private static final int CURRENT_PERIOD_END = index(COLUMNS, "current_period_end");
    private static final int CANCEL_AT_PERIOD_END = index(COLUMNS, "cancel_at_period_end");

    private final Pool pool;

    public PostgresBillingAccounts(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Optional<Customer>> find(long organizationId) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM billing_customers WHERE organization_id = $1")
                .execute(Tuple.of(organizationId)).map(PostgresBillingAccounts::first);
    }

    @Override
    public Uni<Optional<Customer>> findByCustomer(String provider, String customerId) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM billing_customers WHERE provider = $1"
                + " AND customer_id = $2").execute(Tuple.of(provider, customerId)).map(PostgresBillingAccounts::first);
    }

    @Override
    public Uni<Customer> remember(long organizationId, String provider, String customerId) {
        return pool.preparedQuery("""
                        INSERT INTO billing_customers (organization_id, provider, customer_id)
                        VALUES ($1, $2, $3) ON CONFLICT (organization_id) DO NOTHING""")
                .execute(Tuple.of(organizationId, provider, customerId))
                .chain(() -> find(organizationId)).map(Optional::orElseThrow);
    }

    @Override
    public Uni<Boolean> applySubscription(String provider, String customerId, String subscriptionId, String status,
            String plan, Instant currentPeriodEnd, boolean cancelAtPeriodEnd, Instant eventCreated) {
        return pool.preparedQuery("""
                        UPDATE billing_customers SET subscription_id = COALESCE($3, subscription_id),
                        subscription_status = $4, plan = COALESCE($5, plan),
                        current_period_end = COALESCE($6, current_period_end), cancel_at_period_end = $7,
                        event_created_at = $8, updated_at = now() WHERE provider = $1 AND customer_id = $2
                        AND (event_created_at IS NULL OR event_created_at <= $8)""")
                .execute(Tuple.tuple().addString(provider).addString(customerId).addString(subscriptionId)
                        .addString(status).addString(plan).addOffsetDateTime(utc(currentPeriodEnd))
                        .addBoolean(cancelAtPeriodEnd).addOffsetDateTime(utc(eventCreated)))
                .map(rows -> rows.rowCount() > 0);
    }

    private static Optional<Customer> first(RowSet<Row> rows) {
        if (rows.size() == 0) {
            return Optional.empty();
        }
        Row r = rows.iterator().next();
        return Optional.of(new Customer(r.getLong(ORGANIZATION_ID), r.getString(PROVIDER), r.getString(CUSTOMER_ID), r.getString(SUBSCRIPTION_ID), r.getString(SUBSCRIPTION_STATUS),
                r.getString(PLAN), instant(r.getOffsetDateTime(CURRENT_PERIOD_END)), Boolean.TRUE.equals(r.getBoolean(CANCEL_AT_PERIOD_END))));
    }
}
