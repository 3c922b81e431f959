package dev.voiceagent.adapters.postgres.usage;

import static dev.voiceagent.adapters.postgres.shared.Timestamps.instant;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.utc;

import dev.voiceagent.adapters.postgres.shared.Columns;
import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.adapters.postgres.workflow.RunRows;
import dev.voiceagent.application.usage.UsageRepository;
import dev.voiceagent.application.webhook.WebhookOutbox;
import dev.voiceagent.domain.usage.Price;
import dev.voiceagent.domain.usage.UsageDay;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/** Usage records beside the runs they meter; every read is one statement whatever the number of rows. */
@DatabaseAccess
@ApplicationScoped
public class PostgresUsageRepository implements UsageRepository {

    /** The run page's totals, before each run's columns (RunRows) in its rows. */
    private static final String TOTALS = "t.n, t.s, t.c";
    private static final int RUN_AT = Columns.count(TOTALS);

    static final int REPORT_BATCH = 500;

    private final Pool pool;

    public PostgresUsageRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Integer> meter(int limit, Function<List<UnmeteredRun>, List<Metered>> pricing) {
        return pool.withTransaction(tx -> tx.preparedQuery("""
                        /* background tick */ SELECT r.id, r.organization_id,
                        r.workflow_id, r.mode, r.created_at, c.duration_seconds, r.usage_info, o.price_per_second,
                        r.gathered_context->>'mapped_call_disposition' AS disposition, CASE WHEN r.call_type = 'inbound'
                        THEN c.from_number ELSE c.to_number END AS callee, o.dnc_disposition_codes
                        FROM workflow_runs r JOIN organizations o ON o.id = r.organization_id
                        LEFT JOIN calls c ON c.workflow_run_id = r.id
                        WHERE r.is_completed AND NOT r.metered
                          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries q WHERE q.workflow_run_id = r.id
                                             AND q.event_type = '%s' AND q.state = 'pending')
                        ORDER BY r.id LIMIT $1 FOR UPDATE OF r SKIP LOCKED""".formatted(WebhookOutbox.QA_REVIEW))
                .execute(Tuple.of(limit))
                .chain(rows -> {
                    List<UnmeteredRun> runs = new ArrayList<>();
                    for (Row r : rows) {
                        runs.add(new UnmeteredRun(r.getLong("id"), r.getLong("organization_id"),
                                r.getLong("workflow_id"), r.getString("mode"), instant(r.getOffsetDateTime("created_at")),
                                r.getInteger("duration_seconds"), JsonValues.toMap(r.getValue("usage_info")),
                                r.getBigDecimal("price_per_second"), r.getString("disposition"), r.getString("callee"),
                                Arrays.asList(r.getArrayOfStrings("dnc_disposition_codes"))));
                    }
                    return runs.isEmpty() ? Uni.createFrom().item(0) : record(tx, pricing.apply(runs));
                }));
    }

    private static Uni<Integer> record(SqlClient tx, List<Metered> metered) {
        int n = metered.size();
        Long[] run = new Long[n];
        Long[] org = new Long[n];
        Long[] workflow = new Long[n];
        OffsetDateTime[] created = new OffsetDateTime[n];
        Long[] seconds = new Long[n];
        Long[] prompt = new Long[n];
        Long[] completion = new Long[n];
        String[] price = new String[n];
        Long[] charge = new Long[n];
        String[] doNotCall = new String[n];
        for (int i = 0; i < n; i++) {
            Metered m = metered.get(i);
            run[i] = m.run().runId();
            org[i] = m.run().organizationId();
            workflow[i] = m.run().workflowId();
            created[i] = utc(m.run().createdAt());
            seconds[i] = m.usage().callSeconds();
            prompt[i] = m.usage().promptTokens();
            completion[i] = m.usage().completionTokens();
            price[i] = m.price().priced() ? m.price().perSecond().toPlainString() : null;
            charge[i] = m.chargeMinor();
            doNotCall[i] = m.doNotCall();
        }
        Instant at = metered.getFirst().at();
        return tx.preparedQuery("""
                        /* background tick */ WITH input AS (
                            SELECT run_id, org, workflow, created, seconds, prompt, completion, price::numeric AS price,
                                   charge, dnc
                              FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::timestamptz[], $5::bigint[],
                                    $6::bigint[], $7::bigint[], $8::text[], $9::bigint[], $12::text[])
                                AS t(run_id, org, workflow, created, seconds, prompt, completion, price, charge, dnc)),
                        recorded AS (
                            INSERT INTO usage_records (workflow_run_id, organization_id, workflow_id, run_created_at,
                                    metered_at, call_seconds, prompt_tokens, completion_tokens, price_per_second,
                                    charge_minor, currency)
                            SELECT run_id, org, workflow, created, $10, seconds, prompt, completion, price, charge, $11
                              FROM input ORDER BY run_id
                            ON CONFLICT (workflow_run_id) DO NOTHING
                            RETURNING workflow_run_id),
                        rolled AS (
                            INSERT INTO usage_quarter_hours AS q (organization_id, quarter_start, call_seconds,
                                    charge_minor, runs, calls)
                            SELECT i.org, date_bin('15 minutes', i.created, TIMESTAMPTZ '2000-01-01 00:00:00+00'),
                                   sum(i.seconds), sum(i.charge), count(*), count(*) FILTER (WHERE i.seconds > 0)
                              FROM input i JOIN recorded d ON d.workflow_run_id = i.run_id
                             GROUP BY 1, 2 ORDER BY 1, 2
                            ON CONFLICT (organization_id, quarter_start) DO UPDATE
                               SET call_seconds = q.call_seconds + EXCLUDED.call_seconds,
                                   charge_minor = q.charge_minor + EXCLUDED.charge_minor,
                                   runs = q.runs + EXCLUDED.runs, calls = q.calls + EXCLUDED.calls),
                        listed AS (
                            INSERT INTO dnc_numbers (organization_id, phone_number, source, reason, workflow_run_id)
                            SELECT i.org, i.dnc, 'disposition', r.gathered_context->>'mapped_call_disposition', i.run_id
                              FROM input i JOIN recorded d ON d.workflow_run_id = i.run_id
                              JOIN workflow_runs r ON r.id = i.run_id
                             WHERE i.dnc IS NOT NULL ORDER BY 1, 2
                            ON CONFLICT (organization_id, phone_number) DO NOTHING),
                        marked AS (
                            UPDATE workflow_runs r SET metered = true,
                                   cost_info = CASE WHEN d.workflow_run_id IS NULL THEN r.cost_info
                                       ELSE jsonb_build_object('dograh_token_usage', i.charge,
                                           'charge_minor', i.charge, 'currency', $11::text,
                                           'call_duration_seconds', i.seconds, 'price_per_second', i.price)
                                           || COALESCE(r.cost_info, '{}'::jsonb) END
                              FROM input i LEFT JOIN recorded d ON d.workflow_run_id = i.run_id
                             WHERE r.id = i.run_id)
                        SELECT i.org, i.run_id, i.workflow, i.seconds, i.charge
                          FROM input i JOIN recorded d ON d.workflow_run_id = i.run_id
                         ORDER BY i.org, i.run_id""")
                .execute(Tuple.tuple().addArrayOfLong(run).addArrayOfLong(org).addArrayOfLong(workflow)
                        .addValue(created).addArrayOfLong(seconds).addArrayOfLong(prompt).addArrayOfLong(completion)
                        .addValue(price).addArrayOfLong(charge).addOffsetDateTime(utc(at)).addString(Price.CURRENCY)
                        .addArrayOfString(doNotCall))
                .chain(rows -> {
                    Map<Long, List<Row>> charged = new TreeMap<>();
                    int recorded = 0;
                    for (Row r : rows) {
                        recorded++;
                        if (r.getLong("charge") > 0) {
                            charged.computeIfAbsent(r.getLong("org"), k -> new ArrayList<>()).add(r);
                        }
                    }
                    int count = recorded;
                    Uni<Void> debits = Uni.createFrom().voidItem();
                    for (Map.Entry<Long, List<Row>> e : charged.entrySet()) { // organizations in order: no deadlock
                        debits = debits.chain(() -> debit(tx, e.getKey(), e.getValue()));
                    }
                    return debits.replaceWith(count);
                });
    }

    /** The organization's usage debits, each with its running balance, and the account moved by their sum. */
    private static Uni<Void> debit(SqlClient tx, long org, List<Row> charged) {
        Long[] run = charged.stream().map(r -> r.getLong("run_id")).toArray(Long[]::new);
        Long[] workflow = charged.stream().map(r -> r.getLong("workflow")).toArray(Long[]::new);
        Long[] seconds = charged.stream().map(r -> r.getLong("seconds")).toArray(Long[]::new);
        Long[] charge = charged.stream().map(r -> r.getLong("charge")).toArray(Long[]::new);
        return PostgresCreditLedger.open(tx, org, "/* background tick */ ").chain(() -> tx.preparedQuery("""
                        /* background tick */ WITH account AS (
                            SELECT balance FROM credit_accounts WHERE organization_id = $1 FOR UPDATE),
                        debits AS (
                            SELECT * FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[])
                                WITH ORDINALITY AS t(run_id, workflow, seconds, charge, n)),
                        entries AS (
                            INSERT INTO credit_ledger (organization_id, entry_type, origin, credits_delta,
                            balance_after,
                                    amount_minor, amount_currency, workflow_run_id, workflow_id, billable_quantity,
                                    quantity_unit, idempotency_key)
                            SELECT $1, 'usage', 'metering', -d.charge,
                                   a.balance - sum(d.charge) OVER (ORDER BY d.n), d.charge, $6, d.run_id, d.workflow,
                                   d.seconds, 'second', 'usage:run:' || d.run_id
                              FROM debits d CROSS JOIN account a ORDER BY d.n
                            RETURNING credits_delta)
                        UPDATE credit_accounts SET balance = balance + (SELECT sum(credits_delta) FROM entries),
                               updated_at = now()
                         WHERE organization_id = $1""")
                .execute(Tuple.tuple().addLong(org).addArrayOfLong(run).addArrayOfLong(workflow)
                        .addArrayOfLong(seconds).addArrayOfLong(charge).addString(Price.CURRENCY))
                .replaceWithVoid());
    }

    @Override
    public Uni<BigDecimal> organizationPrice(long organizationId) {
        return pool.preparedQuery("SELECT price_per_second FROM organizations WHERE id = $1")
                .execute(Tuple.of(organizationId))
                .map(rows -> rows.size() == 0 ? null : rows.iterator().next().getBigDecimal("price_per_second"));
    }

    /**
     * From the quarter-hour rollup: {@code from} and {@code to} fall on quarter hours (UTC month bounds, or local
     * midnights, every zone's offset being a whole number of quarter hours).
     */
    @Override
    public Uni<Totals> totals(long organizationId, Instant from, Instant to) {
        return pool.preparedQuery("""
                        SELECT COALESCE(sum(call_seconds), 0) AS seconds, COALESCE(sum(charge_minor), 0)
                        AS charge, COALESCE(sum(runs), 0) AS runs FROM usage_quarter_hours WHERE organization_id = $1
                        AND quarter_start >= $2 AND quarter_start < $3""")
                .execute(Tuple.of(organizationId, utc(from), utc(to))).map(rows -> {
                    Row r = rows.iterator().next();
                    return new Totals(r.getLong("seconds"), r.getLong("charge"), r.getLong("runs"));
                });
    }

    /** The day of a quarter hour is its start in the zone, as PostgreSQL's time zone database says. */
    @Override
    public Uni<List<UsageDay>> days(long organizationId, ZoneId zone, Instant from, Instant to) {
        return pool.preparedQuery("""
                        SELECT (quarter_start AT TIME ZONE $4)::date AS day, sum(call_seconds) AS seconds,
                        sum(charge_minor) AS charge, sum(calls) AS calls FROM usage_quarter_hours
                        WHERE organization_id = $1
                        AND quarter_start >= $2 AND quarter_start < $3 GROUP BY 1""")
                .execute(Tuple.of(organizationId, utc(from), utc(to), zone.getId())).map(rows -> {
                    List<UsageDay> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new UsageDay(r.getLocalDate("day"), r.getLong("seconds"), r.getLong("charge"),
                                r.getLong("calls")));
                    }
                    return out;
                });
    }

    /** One statement: the totals of every matching run and the page of them (an empty page keeps the totals). */
    @Override
    public Uni<UsageRunPage> runs(long organizationId, UsageRunQuery query) {
        UsageRunSql q = new UsageRunSql(organizationId, query);
        List<Object> args = new ArrayList<>(q.args);
        args.add(query.limit());
        args.add(query.offset());
        String sql = "WITH f AS (SELECT " + UsageRunSql.RUN_COLUMNS + ", w.name AS workflow_name, u.call_seconds,"
                + " u.charge_minor, u.price_per_second IS NOT NULL AS priced, u.run_created_at, u.workflow_run_id"
                + q.from + "), t AS (SELECT count(*) AS n, COALESCE(sum(call_seconds), 0) AS s,"
                + " COALESCE(sum(charge_minor), 0) AS c FROM f)"
                + " SELECT " + TOTALS + ", p.* FROM t LEFT JOIN LATERAL (SELECT * FROM f u ORDER BY "
                + UsageRunSql.order(query) + " LIMIT $" + (args.size() - 1) + " OFFSET $" + args.size() + ") p ON true";
        return pool.preparedQuery(sql).execute(Tuple.from(args)).map(rows -> {
            List<UsageRun> runs = new ArrayList<>();
            long total = 0;
            long seconds = 0;
            long charge = 0;
            for (Row r : rows) {
                total = r.getLong("n");
                seconds = r.getLong("s");
                charge = r.getLong("c");
                if (r.getLong(RUN_AT) != null) { // the page's run, after the totals; none past the end
                    runs.add(new UsageRun(RunRows.read(r, RUN_AT), r.getString("workflow_name"),
                            r.getLong("call_seconds"), r.getLong("charge_minor"),
                            Boolean.TRUE.equals(r.getBoolean("priced"))));
                }
            }
            return new UsageRunPage(runs, total, seconds, charge);
        });
    }

    @Override
    public Uni<List<String>> reportVariables(long organizationId, UsageRunQuery query) {
        UsageRunSql q = new UsageRunSql(organizationId, query);
        String from = q.from.toString().replace(" WHERE u.organization_id", " CROSS JOIN LATERAL jsonb_object_keys("
                + "CASE WHEN jsonb_typeof(r.gathered_context->'extracted_variables') = 'object'"
                + " THEN r.gathered_context->'extracted_variables' ELSE '{}'::jsonb END) AS k(key)"
                + " WHERE u.organization_id");
        return pool.preparedQuery("SELECT k.key" + from + " GROUP BY k.key ORDER BY max(u.run_created_at) DESC, k.key")
                .execute(Tuple.from(q.args))
                .map(rows -> {
                    List<String> keys = new ArrayList<>();
                    rows.forEach(r -> keys.add(r.getString("key")));
                    return keys;
                });
    }

    /** Keyset batches of {@value #REPORT_BATCH}, newest first: memory stays flat and no cursor holds a transaction. */
    @Override
    public Multi<WorkflowRun> reportRuns(long organizationId, UsageRunQuery query) {
        UsageRunSql q = new UsageRunSql(organizationId, query);
        int after = q.args.size() + 1;
        String sql = "SELECT " + UsageRunSql.RUN_COLUMNS + q.from + " AND ($" + after + "::timestamptz IS NULL"
                + " OR (u.run_created_at, u.workflow_run_id) < ($" + after + ", $" + (after + 1) + "))"
                + " ORDER BY u.run_created_at DESC, u.workflow_run_id DESC LIMIT " + REPORT_BATCH;
        AtomicReference<WorkflowRun> last = new AtomicReference<>();
        return Multi.createBy().repeating().uni(() -> {
                    WorkflowRun previous = last.get();
                    List<Object> args = new ArrayList<>(q.args);
                    args.add(previous == null ? null : utc(previous.createdAt()));
                    args.add(previous == null ? null : previous.id());
                    return pool.preparedQuery(sql).execute(Tuple.from(args)).map(rows -> {
                        List<WorkflowRun> batch = new ArrayList<>();
                        rows.forEach(r -> batch.add(RunRows.read(r, 0)));
                        if (!batch.isEmpty()) {
                            last.set(batch.getLast());
                        }
                        return batch;
                    });
                })
                .whilst(batch -> batch.size() == REPORT_BATCH)
                .onItem().disjoint();
    }

}
