package dev.voiceagent.adapters.postgres.usage;

import static dev.voiceagent.adapters.postgres.shared.Columns.index;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.instant;

import dev.voiceagent.adapters.postgres.shared.Columns;
import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.application.usage.CreditLedger;
import dev.voiceagent.domain.usage.CreditEntry;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The credit ledger: an entry and the account's balance move together in one statement under the account's row
 * lock, so balance_after is exact under concurrent appends; the idempotency key's unique index makes a repeated
 * append change nothing.
 */
@DatabaseAccess
@ApplicationScoped
public class PostgresCreditLedger implements CreditLedger {

    static final String ENTRY_COLUMNS = "id, entry_type, origin, credits_delta, balance_after, amount_minor,"
            + " amount_currency, workflow_run_id, workflow_id, billable_quantity, quantity_unit, correlation_id,"
            + " metadata, created_at";
    private static final int E_ID = index(ENTRY_COLUMNS, "id");
    private static final int E_TYPE = index(ENTRY_COLUMNS, "entry_type");
    private static final int E_ORIGIN = index(ENTRY_COLUMNS, "origin");
    private static final int E_DELTA = index(ENTRY_COLUMNS, "credits_delta");
    private static final int E_BALANCE_AFTER = index(ENTRY_COLUMNS, "balance_after");
    private static final int E_AMOUNT = index(ENTRY_COLUMNS, "amount_minor");
    private static final int E_CURRENCY = index(ENTRY_COLUMNS, "amount_currency");
    private static final int E_RUN_ID = index(ENTRY_COLUMNS, "workflow_run_id");
    private static final int E_WORKFLOW_ID = index(ENTRY_COLUMNS, "workflow_id");
    private static final int E_QUANTITY = index(ENTRY_COLUMNS, "billable_quantity");
    private static final int E_UNIT = index(ENTRY_COLUMNS, "quantity_unit");
    private static final int E_CORRELATION_ID = index(ENTRY_COLUMNS, "correlation_id");
    private static final int E_METADATA = index(ENTRY_COLUMNS, "metadata");
    private static final int E_CREATED_AT = index(ENTRY_COLUMNS, "created_at");
    /** A ledger page's row: the account and the totals, then an entry's columns. */
    private static final String PAGE_HEAD = "a.id, a.balance, t.n, t.used, t.added";
    private static final int ACCOUNT_ID = index(PAGE_HEAD, "a.id");
    private static final int BALANCE = index(PAGE_HEAD, "a.balance");
    private static final int TOTAL = index(PAGE_HEAD, "t.n");
    private static final int USED = index(PAGE_HEAD, "t.used");
    private static final int ADDED = index(PAGE_HEAD, "t.added");
    private static final int ENTRY_AT = Columns.count(PAGE_HEAD);

    private final Pool pool;

    public PostgresCreditLedger(Pool pool) {
        this.pool = pool;
    }

    static Uni<Void> open(SqlClient tx, long organizationId) {
        return open(tx, organizationId, "");
    }

    /** {@code marker} is a fixed SQL comment naming who runs the statement, never caller input. */
    static Uni<Void> open(SqlClient tx, long organizationId, String marker) {
        return tx.preparedQuery(marker + "INSERT INTO credit_accounts (organization_id) VALUES ($1) ON CONFLICT DO NOTHING")
                .execute(Tuple.of(organizationId)).replaceWithVoid();
    }

    @Override
    public Uni<Optional<CreditEntry>> append(Append e) {
        return pool.withTransaction(tx -> open(tx, e.organizationId()).chain(() -> tx.preparedQuery("""
                        WITH account AS (
                            SELECT balance FROM credit_accounts WHERE organization_id = $1 FOR UPDATE),
                        entry AS (
                            INSERT INTO credit_ledger (organization_id, entry_type, origin, credits_delta, balance_after,
                                    amount_minor, amount_currency, billable_quantity, quantity_unit, correlation_id,
                                    idempotency_key, metadata)
                            SELECT $1, $2, $3, $4, account.balance + $4, $5, $6, $7, $8, $9, $10, $11 FROM account
                            ON CONFLICT (idempotency_key) DO NOTHING
                            RETURNING %s),
                        moved AS (
                            UPDATE credit_accounts a SET balance = entry.balance_after, updated_at = now()
                              FROM entry WHERE a.organization_id = $1)
                        SELECT %s FROM entry""".formatted(ENTRY_COLUMNS, ENTRY_COLUMNS))
                .execute(Tuple.tuple().addLong(e.organizationId()).addString(e.type().wireName()).addString(e.origin())
                        .addLong(e.creditsDelta()).addLong(e.amountMinor()).addString(e.amountCurrency())
                        .addLong(e.billableQuantity()).addString(e.quantityUnit()).addString(e.correlationId())
                        .addString(e.idempotencyKey()).addValue(JsonValues.toJson(e.metadata())))
                .map(rows -> rows.size() == 0 ? Optional.<CreditEntry>empty()
                        : Optional.of(entry(rows.iterator().next())))));
    }

    @Override
    public Uni<Long> balance(long organizationId) {
        return pool.preparedQuery("SELECT balance FROM credit_accounts WHERE organization_id = $1")
                .execute(Tuple.of(organizationId))
                .map(rows -> rows.size() == 0 ? 0L : rows.iterator().next().getLong("balance"));
    }

    /** One statement: the account, the totals and the page of entries (an empty page still carries the totals). */
    @Override
    public Uni<LedgerPage> page(long organizationId, int page, int limit) {
        return pool.withTransaction(tx -> open(tx, organizationId).chain(() -> tx.preparedQuery("""
                        WITH totals AS (
                            SELECT count(*) AS n,
                                   COALESCE(sum(-credits_delta) FILTER (WHERE credits_delta < 0), 0) AS used,
                                   COALESCE(sum(credits_delta) FILTER (WHERE credits_delta > 0), 0) AS added
                              FROM credit_ledger WHERE organization_id = $1)
                        SELECT %s, p.*
                          FROM credit_accounts a CROSS JOIN totals t
                          LEFT JOIN LATERAL (SELECT %s FROM credit_ledger WHERE organization_id = $1
                                              ORDER BY id DESC LIMIT $2 OFFSET $3) p ON true
                         WHERE a.organization_id = $1""".formatted(PAGE_HEAD, ENTRY_COLUMNS))
                .execute(Tuple.of(organizationId, limit, (long) (page - 1) * limit))
                .map(rows -> {
                    List<CreditEntry> entries = new ArrayList<>();
                    Account account = null;
                    long total = 0;
                    long used = 0;
                    long added = 0;
                    for (Row r : rows) {
                        account = new Account(r.getLong(ACCOUNT_ID), organizationId, r.getLong(BALANCE));
                        total = r.getLong(TOTAL);
                        used = r.getLong(USED);
                        added = r.getLong(ADDED);
                        if (r.getLong(ENTRY_AT + E_ID) != null) {
                            entries.add(entry(r, ENTRY_AT));
                        }
                    }
                    return new LedgerPage(account, entries, total, used, added);
                })));
    }

    static CreditEntry entry(Row r) {
        return entry(r, 0);
    }

    static CreditEntry entry(Row r, int o) {
        return new CreditEntry(r.getLong(o + E_ID), CreditEntry.Type.fromWireName(r.getString(o + E_TYPE)),
                r.getString(o + E_ORIGIN), r.getLong(o + E_DELTA), r.getLong(o + E_BALANCE_AFTER), r.getLong(o + E_AMOUNT),
                r.getString(o + E_CURRENCY), r.getLong(o + E_RUN_ID), r.getLong(o + E_WORKFLOW_ID),
                r.getLong(o + E_QUANTITY), r.getString(o + E_UNIT), r.getString(o + E_CORRELATION_ID),
                JsonValues.toMap(r.getValue(o + E_METADATA)), instant(r.getOffsetDateTime(o + E_CREATED_AT)));
    }
}
