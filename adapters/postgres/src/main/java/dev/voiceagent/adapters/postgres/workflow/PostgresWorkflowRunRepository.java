package dev.voiceagent.adapters.postgres.workflow;

import dev.voiceagent.adapters.postgres.shared.Columns;
import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.adapters.postgres.shared.Rows;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.utc;

import dev.voiceagent.adapters.postgres.webhook.PostgresWebhookOutbox;
import dev.voiceagent.application.workflow.RunPage;
import dev.voiceagent.application.workflow.RunPageQuery;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import dev.voiceagent.domain.workflow.RunFilter;
import dev.voiceagent.domain.workflow.WorkflowRun;
import dev.voiceagent.domain.webhook.WebhookEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/** Runs on the reactive PG client; filters become parameterised SQL, never string values. */
@DatabaseAccess
@ApplicationScoped
public class PostgresWorkflowRunRepository implements WorkflowRunRepository {

    private static final String COLUMNS = RunRows.COLUMNS;
    private static final String DURATION = "(CASE WHEN jsonb_typeof(usage_info->'call_duration_seconds') = 'number'"
            + " THEN (usage_info->>'call_duration_seconds')::float8 END)";
    private static final String TOKENS = "(CASE WHEN jsonb_typeof(cost_info->'dograh_token_usage') = 'number'"
            + " THEN (cost_info->>'dograh_token_usage')::float8 END)";
    static final int REPORT_BATCH = 500;

    private final Pool pool;

    public PostgresWorkflowRunRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<WorkflowRun> insert(WorkflowRun r) {
        return RunRows.insert(pool, r);
    }

    @Override
    public Uni<Optional<WorkflowRun>> find(long organizationId, long workflowId, long runId) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM workflow_runs WHERE organization_id = $1"
                        + " AND workflow_id = $2 AND id = $3").execute(Tuple.of(organizationId, workflowId, runId))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(run(rows.iterator().next())));
    }

    @Override
    public Uni<Integer> closeUnstarted(Instant before, String disposition, int limit,
            Function<WorkflowRun, List<WebhookEvent>> events) {
        return pool.withTransaction(tx -> tx.preparedQuery("""
                        /* background tick */ UPDATE workflow_runs r
                           SET state = 'completed', is_completed = true,
                               gathered_context = COALESCE(r.gathered_context, '{}'::jsonb) || jsonb_build_object(
                                   'call_disposition', $2::text, 'mapped_call_disposition', $2::text,
                                   'call_status', $2::text, 'call_tags', jsonb_build_array($2::text)),
                               usage_info = COALESCE(r.usage_info, '{}'::jsonb) || '{"call_duration_seconds": 0}'::jsonb
                         WHERE r.id IN (SELECT u.id FROM workflow_runs u
                                         WHERE u.state = 'initialized' AND NOT u.is_completed
                                           AND u.mode IN ('webrtc', 'smallwebrtc') AND u.created_at < $1
                                           AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.workflow_run_id = u.id)
                                         ORDER BY u.created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
                        RETURNING\s""" + COLUMNS)
                .execute(Tuple.of(before.atOffset(ZoneOffset.UTC), disposition, limit))
                .chain(rows -> enqueue(tx, rows, events)));
    }

    /** The closed runs' webhook events, enqueued in the closing transaction; how many runs were closed. */
    private static Uni<Integer> enqueue(SqlConnection tx, RowSet<Row> rows,
            Function<WorkflowRun, List<WebhookEvent>> events) {
        List<WorkflowRun> closed = new ArrayList<>(rows.size());
        rows.forEach(row -> closed.add(run(row)));
        // one batch per organization: a tick closes few runs, usually of one organization
        Map<Long, List<WebhookEvent>> byOrganization = new LinkedHashMap<>();
        closed.forEach(run -> byOrganization.computeIfAbsent(run.organizationId(), o -> new ArrayList<>())
                .addAll(events.apply(run)));
        return Multi.createFrom().iterable(byOrganization.entrySet()).onItem()
                .transformToUniAndConcatenate(e -> PostgresWebhookOutbox.enqueue(tx, e.getKey(), e.getValue()))
                .collect().last().replaceWith(closed.size());
    }

    @Override
    public Uni<Integer> closeOrphaned(Instant heartbeatBefore, String disposition, String error, int limit,
            Function<WorkflowRun, List<WebhookEvent>> events) {
        return pool.withTransaction(tx -> tx.preparedQuery("""
                        /* background tick */ UPDATE workflow_runs r
                           SET state = 'completed', is_completed = true, media_owner = NULL, media_heartbeat_at = NULL,
                               gathered_context = jsonb_build_object(
                                   'call_disposition', $2::text, 'mapped_call_disposition', $2::text,
                                   'call_status', $2::text, 'call_tags', jsonb_build_array($2::text), 'error', $4::text)
                                   || COALESCE(r.gathered_context, '{}'::jsonb)
                         WHERE r.id IN (SELECT u.id FROM workflow_runs u
                                         WHERE u.media_owner IS NOT NULL AND u.media_heartbeat_at < $1
                                           AND NOT u.is_completed
                                         ORDER BY u.media_heartbeat_at LIMIT $3 FOR UPDATE SKIP LOCKED)
                        RETURNING\s""" + COLUMNS)
                .execute(Tuple.of(heartbeatBefore.atOffset(ZoneOffset.UTC), disposition, limit, error))
                .chain(rows -> enqueue(tx, rows, events)));
    }

    @Override
    public Uni<Optional<WorkflowRun>> findById(long runId) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM workflow_runs WHERE id = $1").execute(Tuple.of(runId))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(run(rows.iterator().next())));
    }

    @Override
    public Uni<Optional<WorkflowRun>> amend(long organizationId, long runId, UnaryOperator<WorkflowRun> change) {
        return pool.withTransaction(tx -> tx.preparedQuery("SELECT " + COLUMNS
                        + " FROM workflow_runs WHERE id = $1 AND organization_id = $2 FOR UPDATE")
                .execute(Tuple.of(runId, organizationId)).chain(rows -> {
                    if (rows.size() == 0) {
                        return Uni.createFrom().item(Optional.<WorkflowRun>empty());
                    }
                    WorkflowRun changed = change.apply(run(rows.iterator().next()));
                    return tx.preparedQuery("UPDATE workflow_runs SET annotations = $3::jsonb, usage_info = $4::jsonb"
                                    + " WHERE id = $1 AND organization_id = $2")
                            .execute(Tuple.of(runId, organizationId, JsonValues.toJson(changed.annotations()),
                                    JsonValues.toJson(changed.usageInfo())))
                            .replaceWith(Optional.of(changed));
                }));
    }

    @Override
    public Uni<RunPage> page(long organizationId, long workflowId, RunPageQuery query) {
        return page(organizationId, "workflow_id", workflowId, query);
    }

    @Override
    public Uni<RunPage> pageForCampaign(long organizationId, long campaignId, RunPageQuery query) {
        return page(organizationId, "campaign_id", campaignId, query);
    }

    /** {@code scope} is one of two column names fixed above, never caller input. */
    private Uni<RunPage> page(long organizationId, String scope, long scopeId, RunPageQuery query) {
        List<Object> args = new ArrayList<>(List.of(organizationId, scopeId));
        StringBuilder where = new StringBuilder(" FROM workflow_runs WHERE organization_id = $1 AND " + scope + " = $2");
        for (RunFilter filter : query.filters()) {
            switch (filter) {
                case RunFilter.DateRange d -> {
                    bound(where, args, "created_at", ">=", d.from() == null ? null : utc(d.from()));
                    bound(where, args, "created_at", "<=", d.to() == null ? null : utc(d.to()));
                }
                case RunFilter.Dispositions d -> {
                    args.add(d.codes().toArray(String[]::new));
                    where.append(" AND gathered_context->>'mapped_call_disposition' = ANY($").append(args.size()).append(")");
                }
                case RunFilter.Duration d -> {
                    bound(where, args, DURATION, ">=", d.min());
                    bound(where, args, DURATION, "<=", d.max());
                }
                case RunFilter.Status s -> {
                    args.add(s.completed());
                    where.append(" AND is_completed = $").append(args.size());
                }
                case RunFilter.TokenUsage t -> {
                    bound(where, args, TOKENS, ">=", t.min());
                    bound(where, args, TOKENS, "<=", t.max());
                }
            }
        }
        String order = (query.sortBy() == RunPageQuery.SortBy.DURATION ? DURATION : "created_at")
                + (query.ascending() ? " ASC" : " DESC") + " NULLS LAST, id" + (query.ascending() ? " ASC" : " DESC");
        Tuple countArgs = Tuple.from(args);
        List<Object> pageArgs = new ArrayList<>(args);
        pageArgs.add(query.limit());
        pageArgs.add(query.offset());
        String pageSql = "SELECT " + COLUMNS + where + " ORDER BY " + order + " LIMIT $" + (args.size() + 1)
                + " OFFSET $" + (args.size() + 2);
        return Uni.combine().all().unis(
                        pool.preparedQuery(pageSql).execute(Tuple.from(pageArgs)),
                        pool.preparedQuery("SELECT count(*) AS total" + where).execute(countArgs))
                .with((rows, count) -> new RunPage(runs(rows), count.iterator().next().getLong("total")));
    }

    private static void bound(StringBuilder where, List<Object> args, String column, String operator, Object value) {
        if (value != null) {
            args.add(value);
            where.append(" AND ").append(column).append(' ').append(operator).append(" $").append(args.size());
        }
    }

    @Override
    public Uni<List<WorkflowRun>> recent(long organizationId, long workflowId, int limit) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM workflow_runs WHERE organization_id = $1"
                        + " AND workflow_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3")
                .execute(Tuple.of(organizationId, workflowId, limit)).map(PostgresWorkflowRunRepository::runs);
    }

    /** The reportable runs of a workflow or campaign ({@code scope} is a fixed column name, never caller input). */
    private static String reportable(String scope) {
        return " FROM workflow_runs r WHERE r.organization_id = $1 AND r." + scope + " = $2" + REPORTABLE_RUNS;
    }

    private static final String REPORTABLE_RUNS = " AND r.is_completed AND jsonb_typeof(r.usage_info->'call_duration_seconds') = 'number'"
            + " AND ($3::timestamptz IS NULL OR r.created_at >= $3) AND ($4::timestamptz IS NULL OR r.created_at <= $4)";

    @Override
    public Uni<List<String>> reportVariables(long organizationId, long workflowId, Instant from, Instant to) {
        return reportVariables(organizationId, "workflow_id", workflowId, from, to);
    }

    @Override
    public Uni<List<String>> campaignReportVariables(long organizationId, long campaignId, Instant from, Instant to) {
        return reportVariables(organizationId, "campaign_id", campaignId, from, to);
    }

    private Uni<List<String>> reportVariables(long organizationId, String scope, long scopeId, Instant from,
            Instant to) {
        return pool.preparedQuery("SELECT k.key" + reportable(scope).replace(" FROM workflow_runs r",
                                " FROM workflow_runs r CROSS JOIN LATERAL jsonb_object_keys(CASE WHEN"
                                        + " jsonb_typeof(r.gathered_context->'extracted_variables') = 'object'"
                                        + " THEN r.gathered_context->'extracted_variables' ELSE '{}'::jsonb END) AS k(key)")
                        + " GROUP BY k.key ORDER BY max(r.created_at) DESC, k.key")
                .execute(Tuple.of(organizationId, scopeId, utc(from), utc(to))).map(rows -> {
                    List<String> keys = new ArrayList<>();
                    rows.forEach(r -> keys.add(r.getString("key")));
                    return keys;
                });
    }

    /** Keyset batches of {@value #REPORT_BATCH} rows: memory stays flat and no cursor holds a transaction open. */
    @Override
    public Multi<WorkflowRun> reportRuns(long organizationId, long workflowId, Instant from, Instant to) {
        return reportRuns(organizationId, "workflow_id", workflowId, from, to);
    }

    @Override
    public Multi<WorkflowRun> campaignReportRuns(long organizationId, long campaignId, Instant from, Instant to) {
        return reportRuns(organizationId, "campaign_id", campaignId, from, to);
    }

    private Multi<WorkflowRun> reportRuns(long organizationId, String scope, long scopeId, Instant from, Instant to) {
        AtomicReference<WorkflowRun> last = new AtomicReference<>();
        String sql = "SELECT " + Columns.prefixed("r", COLUMNS) + reportable(scope)
                + " AND ($5::timestamptz IS NULL OR (r.created_at, r.id) < ($5, $6))"
                + " ORDER BY r.created_at DESC, r.id DESC LIMIT " + REPORT_BATCH;
        return Multi.createBy().repeating()
                .uni(() -> {
                    WorkflowRun after = last.get();
                    return pool.preparedQuery(sql).execute(Tuple.of(organizationId, scopeId, utc(from), utc(to),
                                    after == null ? null : utc(after.createdAt()), after == null ? null : after.id()))
                            .map(PostgresWorkflowRunRepository::runs)
                            .invoke(batch -> {
                                if (!batch.isEmpty()) {
                                    last.set(batch.getLast());
                                }
                            });
                })
                .whilst(batch -> batch.size() == REPORT_BATCH)
                .onItem().disjoint();
    }

    private static List<WorkflowRun> runs(RowSet<Row> rows) {
        return Rows.list(rows, PostgresWorkflowRunRepository::run);
    }

    private static WorkflowRun run(Row r) {
        return RunRows.read(r, 0);
    }
}
