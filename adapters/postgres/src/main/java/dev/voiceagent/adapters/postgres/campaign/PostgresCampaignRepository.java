package dev.voiceagent.adapters.postgres.campaign;

import static dev.voiceagent.adapters.postgres.shared.Columns.index;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.utc;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.instant;

import dev.voiceagent.adapters.postgres.shared.Columns;
import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.JsonColumns;
import dev.voiceagent.application.campaign.CampaignRepository;
import dev.voiceagent.application.campaign.CampaignView;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignLogEntry;
import dev.voiceagent.domain.campaign.CampaignState;
import dev.voiceagent.domain.campaign.CampaignTransition;
import dev.voiceagent.domain.campaign.LogLevel;
import dev.voiceagent.adapters.postgres.webhook.PostgresWebhookOutbox;
import dev.voiceagent.domain.campaign.RetryConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Campaigns on the reactive PG client. The list costs two statements whatever the number of
 * campaigns: names by join and counts from the campaigns' tallies in one, the ordered logs in the other.
 */
@DatabaseAccess
@ApplicationScoped
public class PostgresCampaignRepository implements CampaignRepository {

    /**
     * The campaigns with their names and counts; the counts are the sums of the campaigns' tallies
     * (V29: every change to calls and contacts appends its net change there), not counts of calls
     * and contacts, so the cost does not grow with what a campaign has dialed.
     */
    private static String viewSelect(String tallyFilter, String campaignFilter) {
        return "SELECT " + CAMPAIGN_COLUMNS + """
                ,      w.name AS workflow_name, t.name AS telephony_configuration_name,
                       COALESCE(k.executed, 0) AS executed_count,
                       COALESCE(k.calls, 0) + COALESCE(k.open, 0) AS total_queued_count
                  FROM campaigns c
                  LEFT JOIN workflows w ON w.organization_id = c.organization_id AND w.id = c.workflow_id
                  LEFT JOIN telephony_configurations t
                         ON t.organization_id = c.organization_id AND t.id = c.telephony_configuration_id
                  LEFT JOIN (SELECT campaign_id, sum(calls)::bigint AS calls, sum(executed_calls)::bigint AS executed,
                                    sum(open_contacts)::bigint AS open
                               FROM campaign_tallies
                              WHERE organization_id = $1%s
                              GROUP BY campaign_id) k ON k.campaign_id = c.id
                 WHERE c.organization_id = $1%s
                """.formatted(tallyFilter, campaignFilter);
    }

    private static final String LIST = viewSelect("", "") + " ORDER BY c.created_at DESC, c.id DESC";
    private static final String FIND = viewSelect(" AND campaign_id = $2", " AND c.id = $2");

    /**
     * Plain rows (no JSON built in the database): the cheapest way to ship a large log. JSON columns
     * come as text here and in the list, parsed by {@link JsonColumns} and {@link CampaignJson}.
     */
    private static final String LOG_COLUMNS = "campaign_id, ts, level, event, message, details::text";
    private static final String LOGS_SELECT = "SELECT " + LOG_COLUMNS + """

              FROM campaign_log_entries
             WHERE organization_id = $1
            """;
    private static final String LIST_LOGS = LOGS_SELECT + " ORDER BY campaign_id, id";
    private static final String FIND_LOGS = LOGS_SELECT + " AND campaign_id = $2 ORDER BY id";

    private static final String INSERT = """
            INSERT INTO campaigns (organization_id, name, workflow_id, created_by, telephony_configuration_id,
                   source_type, source_id, state, total_rows, processed_rows, failed_rows, retry_config,
                   max_concurrency, schedule_config, circuit_breaker, parent_campaign_id, redialed_campaign_id,
                   created_at, started_at, completed_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
            RETURNING id
            """;

    private static final String INSERT_LOG = CampaignLogs.INSERT;

    private final Pool pool;

    public PostgresCampaignRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Campaign> insert(Campaign c) {
        return pool.withTransaction(tx -> insert(tx, c));
    }

    private static Uni<Campaign> insert(SqlClient tx, Campaign c) {
        Tuple values = Tuple.tuple() // Tuple.of caps at 6 arguments; build it up.
                .addLong(c.organizationId()).addString(c.name()).addLong(c.workflowId()).addLong(c.createdBy())
                .addLong(c.telephonyConfigurationId()).addString(c.sourceType()).addString(c.sourceId())
                .addString(c.state().wireName()).addInteger(c.totalRows()).addInteger(c.processedRows())
                .addInteger(c.failedRows()).addValue(CampaignJson.retry(c.retryConfig()))
                .addInteger(c.maxConcurrency()).addValue(CampaignJson.schedule(c.scheduleConfig()))
                .addValue(CampaignJson.breaker(c.circuitBreaker())).addLong(c.parentCampaignId())
                .addLong(c.redialedCampaignId()).addOffsetDateTime(utc(c.createdAt()))
                .addOffsetDateTime(utc(c.startedAt())).addOffsetDateTime(utc(c.completedAt()));
        return tx.preparedQuery(INSERT).execute(values)
                .map(rows -> c.withId(rows.iterator().next().getLong("id")))
                .call(saved -> saved.logs().isEmpty()
                        ? Uni.createFrom().voidItem()
                        : tx.preparedQuery(INSERT_LOG).executeBatch(saved.logs().stream()
                                .map(entry -> logTuple(saved.organizationId(), saved.id(), entry)).toList()));
    }

    @Override
    public Uni<Optional<Campaign>> insertRedial(Campaign parent, Campaign child, List<String> outcomes) {
        long org = parent.organizationId();
        return pool.withTransaction(tx -> tx.preparedQuery("""
                        SELECT id FROM campaigns WHERE organization_id = $1
                        AND id = $2 AND state = 'completed' AND redialed_campaign_id IS NULL FOR UPDATE""")
                .execute(Tuple.of(org, parent.id()))
                .chain(locked -> locked.size() == 0 ? Uni.createFrom().item(Optional.<Campaign>empty())
                        : insert(tx, child).chain(saved -> tx.preparedQuery("""
                                        INSERT INTO campaign_contacts (organization_id, campaign_id, row_number,
                                        phone_number,
                                               timezone, context)
                                        SELECT organization_id, $3, row_number, phone_number, timezone, context
                                          FROM campaign_contacts
                                         WHERE organization_id = $1 AND campaign_id = $2 AND state = 'done'
                                           AND last_outcome = ANY($4)""")
                                .execute(Tuple.of(org, parent.id(), saved.id(), outcomes.toArray(String[]::new)))
                                .chain(copied -> tx.preparedQuery("""
                                                UPDATE campaigns SET total_rows = $3
                                                WHERE organization_id = $1 AND id = $2""")
                                        .execute(Tuple.of(org, saved.id(), copied.rowCount())))
                                .chain(() -> tx.preparedQuery("""
                                                UPDATE campaigns SET redialed_campaign_id = $3,
                                                updated_at = now() WHERE organization_id = $1 AND id = $2""")
                                        .execute(Tuple.of(org, parent.id(), saved.id())))
                                .replaceWith(Optional.of(saved)))));
    }

    @Override
    public Uni<Boolean> applyTransition(Campaign before, CampaignTransition transition) {
        return pool.withTransaction(tx -> applyTransition(tx, before, transition));
    }

    /**
     * Within the caller's transaction: the new state, its log entry and its webhook event, only if the campaign is still
     * in the state it was read in. Leaving paused for running starts the breaker's fresh window.
     */
    public static Uni<Boolean> applyTransition(SqlClient tx, Campaign before, CampaignTransition transition) {
        Campaign after = transition.campaign();
        return tx.preparedQuery("""
                        UPDATE campaigns SET state = $1, started_at = $2, completed_at = $3, total_rows = $4,
                        breaker_window_from = CASE WHEN $7 = 'paused' AND $1 = 'running' THEN $8
                        ELSE breaker_window_from END, updated_at = now()
                        WHERE organization_id = $5 AND id = $6 AND state = $7""")
                .execute(Tuple.tuple().addString(after.state().wireName()).addOffsetDateTime(utc(after.startedAt()))
                        .addOffsetDateTime(utc(after.completedAt())).addInteger(after.totalRows())
                        .addLong(after.organizationId()).addLong(after.id()).addString(before.state().wireName())
                        .addOffsetDateTime(utc(transition.entry().ts())))
                .chain(updated -> updated.rowCount() == 0 ? Uni.createFrom().item(false)
                        : appendLog(tx, after.organizationId(), after.id(), transition.entry())
                                .chain(() -> PostgresWebhookOutbox.enqueue(tx, after.organizationId(),
                                        transition.events()))
                                .replaceWith(true));
    }

    @Override
    public Uni<Boolean> applySettings(Campaign before, CampaignTransition transition, Set<String> changed) {
        Campaign after = transition.campaign();
        // CASE on a flag per setting: one statement text, only the changed settings written
        Tuple values = Tuple.tuple()
                .addBoolean(changed.contains("name")).addString(after.name())
                .addBoolean(changed.contains("retry_config")).addValue(CampaignJson.retry(after.retryConfig()))
                .addBoolean(changed.contains("max_concurrency")).addInteger(after.maxConcurrency())
                .addBoolean(changed.contains("schedule_config")).addValue(CampaignJson.schedule(after.scheduleConfig()))
                .addBoolean(changed.contains("circuit_breaker")).addValue(CampaignJson.breaker(after.circuitBreaker()))
                .addLong(after.organizationId()).addLong(after.id()).addString(before.state().wireName());
        return pool.withTransaction(tx -> tx.preparedQuery("""
                        UPDATE campaigns SET
                            name = CASE WHEN $1 THEN $2 ELSE name END,
                            retry_config = CASE WHEN $3 THEN $4 ELSE retry_config END,
                            max_concurrency = CASE WHEN $5 THEN $6 ELSE max_concurrency END,
                            schedule_config = CASE WHEN $7 THEN $8 ELSE schedule_config END,
                            circuit_breaker = CASE WHEN $9 THEN $10 ELSE circuit_breaker END,
                            updated_at = now()
                        WHERE organization_id = $11 AND id = $12 AND state = $13""")
                .execute(values)
                .chain(updated -> updated.rowCount() == 0 ? Uni.createFrom().item(false)
                        : appendLog(tx, after.organizationId(), after.id(), transition.entry()).replaceWith(true)));
    }

    @Override
    public Uni<Void> appendLog(long organizationId, long campaignId, CampaignLogEntry entry) {
        return appendLog(pool, organizationId, campaignId, entry);
    }

    static Uni<Void> appendLog(SqlClient client, long organizationId, long campaignId, CampaignLogEntry entry) {
        return CampaignLogs.append(client, organizationId, campaignId, entry);
    }

    /**
     * Two statements whatever the number of campaigns: the campaigns with their names and counts,
     * and all their log entries; run concurrently on two pooled connections.
     */
    @Override
    public Uni<List<CampaignView>> listViews(long organizationId) {
        Tuple org = Tuple.of(organizationId);
        return Uni.combine().all()
                .unis(pool.preparedQuery(LIST).execute(org), pool.preparedQuery(LIST_LOGS).execute(org))
                .with(PostgresCampaignRepository::views);
    }

    @Override
    public Uni<Optional<RetryConfig>> retryConfig(long organizationId, long campaignId) {
        return pool.preparedQuery("SELECT retry_config::text AS retry FROM campaigns WHERE organization_id = $1"
                        + " AND id = $2")
                .execute(Tuple.of(organizationId, campaignId))
                .map(rows -> rows.size() == 0 ? Optional.empty()
                        : Optional.of(CampaignJson.retry(rows.iterator().next().getString("retry"))));
    }

    /**
     * One statement: the rows of up to {@code limit} campaigns with unfolded tallies are deleted and
     * their sums inserted as one folded row per campaign (none when every sum is zero). Two replicas
     * folding at once cannot double a count: each inserts the sums of the rows its own delete removed.
     */
    @Override
    public Uni<Integer> foldTallies(int limit) {
        return pool.preparedQuery("""
                        /* background tick */ WITH due AS (
                            SELECT DISTINCT campaign_id FROM campaign_tallies WHERE NOT folded LIMIT $1
                        ), gone AS (
                            DELETE FROM campaign_tallies t USING due WHERE t.campaign_id = due.campaign_id
                            RETURNING t.campaign_id, t.organization_id, t.calls, t.executed_calls, t.open_contacts
                        ), folded AS (
                            INSERT INTO campaign_tallies (campaign_id, organization_id, calls, executed_calls,
                                                          open_contacts, folded)
                            SELECT campaign_id, min(organization_id), sum(calls), sum(executed_calls),
                                   sum(open_contacts), true
                              FROM gone GROUP BY campaign_id
                            HAVING sum(calls) <> 0 OR sum(executed_calls) <> 0 OR sum(open_contacts) <> 0
                        )
                        SELECT count(DISTINCT campaign_id) AS folded FROM gone
                        """).execute(Tuple.of(limit)).map(rows -> rows.iterator().next().getLong("folded").intValue());
    }

    @Override
    public Uni<Optional<CampaignView>> latest(long organizationId) {
        return pool.preparedQuery("""
                        SELECT id FROM campaigns WHERE organization_id = $1 ORDER BY created_at DESC, id DESC
                        LIMIT 1""").execute(Tuple.of(organizationId))
                .chain(rows -> rows.size() == 0 ? Uni.createFrom().item(Optional.<CampaignView>empty())
                        : findView(organizationId, rows.iterator().next().getLong("id")));
    }

    @Override
    public Uni<Optional<CampaignView>> findView(long organizationId, long campaignId) {
        Tuple ids = Tuple.of(organizationId, campaignId);
        return Uni.combine().all()
                .unis(pool.preparedQuery(FIND).execute(ids), pool.preparedQuery(FIND_LOGS).execute(ids))
                .with((campaigns, logs) -> views(campaigns, logs).stream().findFirst());
    }

    private static Tuple logTuple(long organizationId, long campaignId, CampaignLogEntry entry) {
        return CampaignLogs.tuple(organizationId, campaignId, entry);
    }

    private static final int LOG_CAMPAIGN_ID = index(LOG_COLUMNS, "campaign_id");
    private static final int LOG_TS = index(LOG_COLUMNS, "ts");
    private static final int LOG_LEVEL = index(LOG_COLUMNS, "level");
    private static final int LOG_EVENT = index(LOG_COLUMNS, "event");
    private static final int LOG_MESSAGE = index(LOG_COLUMNS, "message");
    private static final int LOG_DETAILS = index(LOG_COLUMNS, "details::text");

    private static List<CampaignView> views(RowSet<Row> campaignRows, RowSet<Row> logRows) {
        Map<Long, List<CampaignLogEntry>> logs = new HashMap<>();
        for (Row row : logRows) {
            Map<String, Object> details = JsonColumns.toMap(row.getString(LOG_DETAILS));
            logs.computeIfAbsent(row.getLong(LOG_CAMPAIGN_ID), id -> new ArrayList<>()).add(new CampaignLogEntry(
                    row.getOffsetDateTime(LOG_TS).toInstant(), LogLevel.fromWireName(row.getString(LOG_LEVEL)),
                    row.getString(LOG_EVENT), row.getString(LOG_MESSAGE), details));
        }
        List<CampaignView> views = new ArrayList<>(campaignRows.size());
        for (Row row : campaignRows) {
            views.add(new CampaignView(campaign(row, logs.getOrDefault(row.getLong(ID), List.of())),
                    row.getString(WORKFLOW_NAME), row.getString(TELEPHONY_NAME), row.getLong(EXECUTED),
                    row.getLong(QUEUED)));
        }
        return views;
    }

    /**
     * The campaign's own columns, in the order {@link #campaign} reads them: the first columns of viewSelect
     * and of the dispatcher's reads. The JSON columns come as text, for {@link CampaignJson}'s one reader.
     */
    static final String CAMPAIGN_COLUMNS = """
            c.id, c.organization_id, c.name, c.workflow_id, c.created_by, c.telephony_configuration_id,
            c.source_type, c.source_id, c.state, c.total_rows, c.processed_rows, c.failed_rows,
            c.retry_config::text, c.max_concurrency, c.schedule_config::text, c.circuit_breaker::text,
            c.parent_campaign_id, c.redialed_campaign_id, c.created_at, c.started_at, c.completed_at""";

    // Column positions, derived from the column lists (reading by index avoids a name lookup per cell): the
    // campaign's own columns, then viewSelect's names and counts after them.
    private static final int ID = index(CAMPAIGN_COLUMNS, "c.id");
    private static final int ORGANIZATION_ID = index(CAMPAIGN_COLUMNS, "c.organization_id");
    private static final int NAME = index(CAMPAIGN_COLUMNS, "c.name");
    private static final int WORKFLOW_ID = index(CAMPAIGN_COLUMNS, "c.workflow_id");
    private static final int CREATED_BY = index(CAMPAIGN_COLUMNS, "c.created_by");
    private static final int TELEPHONY_ID = index(CAMPAIGN_COLUMNS, "c.telephony_configuration_id");
    private static final int SOURCE_TYPE = index(CAMPAIGN_COLUMNS, "c.source_type");
    private static final int SOURCE_ID = index(CAMPAIGN_COLUMNS, "c.source_id");
    private static final int STATE = index(CAMPAIGN_COLUMNS, "c.state");
    private static final int TOTAL_ROWS = index(CAMPAIGN_COLUMNS, "c.total_rows");
    private static final int PROCESSED_ROWS = index(CAMPAIGN_COLUMNS, "c.processed_rows");
    private static final int FAILED_ROWS = index(CAMPAIGN_COLUMNS, "c.failed_rows");
    private static final int RETRY = index(CAMPAIGN_COLUMNS, "c.retry_config::text");
    private static final int MAX_CONCURRENCY = index(CAMPAIGN_COLUMNS, "c.max_concurrency");
    private static final int SCHEDULE = index(CAMPAIGN_COLUMNS, "c.schedule_config::text");
    private static final int BREAKER = index(CAMPAIGN_COLUMNS, "c.circuit_breaker::text");
    private static final int PARENT_ID = index(CAMPAIGN_COLUMNS, "c.parent_campaign_id");
    private static final int REDIALED_ID = index(CAMPAIGN_COLUMNS, "c.redialed_campaign_id");
    private static final int CREATED_AT = index(CAMPAIGN_COLUMNS, "c.created_at");
    private static final int STARTED_AT = index(CAMPAIGN_COLUMNS, "c.started_at");
    private static final int COMPLETED_AT = index(CAMPAIGN_COLUMNS, "c.completed_at");
    private static final int WORKFLOW_NAME = Columns.count(CAMPAIGN_COLUMNS);
    private static final int TELEPHONY_NAME = WORKFLOW_NAME + 1;
    private static final int EXECUTED = WORKFLOW_NAME + 2;
    private static final int QUEUED = WORKFLOW_NAME + 3;

    /** A campaign from the columns of {@link #CAMPAIGN_COLUMNS}, the first of its row. */
    static Campaign campaign(Row r, List<CampaignLogEntry> logs) {
        return new Campaign(r.getLong(ID), r.getLong(ORGANIZATION_ID), r.getString(NAME), r.getLong(WORKFLOW_ID),
                r.getLong(CREATED_BY), r.getLong(TELEPHONY_ID), r.getString(SOURCE_TYPE), r.getString(SOURCE_ID),
                CampaignState.fromWireName(r.getString(STATE)).orElseThrow(),
                r.getInteger(TOTAL_ROWS), r.getInteger(PROCESSED_ROWS), r.getInteger(FAILED_ROWS),
                CampaignJson.retry(r.getString(RETRY)), r.getInteger(MAX_CONCURRENCY),
                CampaignJson.schedule(r.getString(SCHEDULE)), CampaignJson.breaker(r.getString(BREAKER)),
                r.getLong(PARENT_ID), r.getLong(REDIALED_ID), instant(r.getOffsetDateTime(CREATED_AT)),
                instant(r.getOffsetDateTime(STARTED_AT)), instant(r.getOffsetDateTime(COMPLETED_AT)), logs);
    }

}
