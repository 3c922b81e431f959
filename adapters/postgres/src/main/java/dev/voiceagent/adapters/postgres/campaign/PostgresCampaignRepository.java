package dev.voiceagent.adapters.postgres.campaign;

import dev.voiceagent.application.campaign.CampaignRepository;
import dev.voiceagent.application.campaign.CampaignView;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignLogEntry;
import dev.voiceagent.domain.campaign.CampaignState;
import dev.voiceagent.domain.campaign.LogLevel;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Campaigns on the reactive PG client. The list is one SQL statement whatever the number of
 * campaigns: names by join, attempt counts and the ordered log aggregated per campaign in the same query.
 */
@ApplicationScoped
public class PostgresCampaignRepository implements CampaignRepository {

    private static final String VIEW_SELECT = """
            SELECT c.id, c.organization_id, c.name, c.workflow_id, c.created_by, c.telephony_configuration_id,
                   c.source_type, c.source_id, c.state, c.total_rows, c.processed_rows, c.failed_rows,
                   c.retry_config, c.max_concurrency, c.schedule_config, c.circuit_breaker,
                   c.parent_campaign_id, c.redialed_campaign_id, c.created_at, c.started_at, c.completed_at,
                   w.name AS workflow_name, t.name AS telephony_configuration_name,
                   COALESCE(a.executed, 0) AS executed_count, COALESCE(a.total, 0) AS total_queued_count,
                   COALESCE(l.entries, '[]'::jsonb) AS logs
              FROM campaigns c
              LEFT JOIN workflows w ON w.organization_id = c.organization_id AND w.id = c.workflow_id
              LEFT JOIN telephony_configurations t
                     ON t.organization_id = c.organization_id AND t.id = c.telephony_configuration_id
              LEFT JOIN LATERAL (
                    SELECT count(*) FILTER (WHERE ca.state = 'processed') AS executed, count(*) AS total
                      FROM call_attempts ca
                     WHERE ca.organization_id = c.organization_id AND ca.campaign_id = c.id) a ON true
              LEFT JOIN LATERAL (
                    SELECT jsonb_agg(jsonb_build_object(
                               'ts', to_char(e.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                               'level', e.level, 'event', e.event, 'message', e.message, 'details', e.details)
                               ORDER BY e.id) AS entries
                      FROM campaign_log_entries e
                     WHERE e.organization_id = c.organization_id AND e.campaign_id = c.id) l ON true
             WHERE c.organization_id = $1
            """;

    private static final String LIST = VIEW_SELECT + " ORDER BY c.created_at DESC, c.id DESC";
    private static final String FIND = VIEW_SELECT + " AND c.id = $2";

    private static final String INSERT = """
            INSERT INTO campaigns (organization_id, name, workflow_id, created_by, telephony_configuration_id,
                   source_type, source_id, state, total_rows, processed_rows, failed_rows, retry_config,
                   max_concurrency, schedule_config, circuit_breaker, parent_campaign_id, redialed_campaign_id,
                   created_at, started_at, completed_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
            RETURNING id
            """;

    private static final String INSERT_LOG = """
            INSERT INTO campaign_log_entries (organization_id, campaign_id, ts, level, event, message, details)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            """;

    private final Pool pool;

    public PostgresCampaignRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Campaign> insert(Campaign c) {
        Tuple values = Tuple.tuple() // Tuple.of caps at 6 arguments; build it up.
                .addLong(c.organizationId()).addString(c.name()).addLong(c.workflowId()).addLong(c.createdBy())
                .addLong(c.telephonyConfigurationId()).addString(c.sourceType()).addString(c.sourceId())
                .addString(c.state().wireName()).addInteger(c.totalRows()).addInteger(c.processedRows())
                .addInteger(c.failedRows()).addValue(CampaignJson.retry(c.retryConfig()))
                .addInteger(c.maxConcurrency()).addValue(CampaignJson.schedule(c.scheduleConfig()))
                .addValue(CampaignJson.breaker(c.circuitBreaker())).addLong(c.parentCampaignId())
                .addLong(c.redialedCampaignId()).addOffsetDateTime(utc(c.createdAt()))
                .addOffsetDateTime(utc(c.startedAt())).addOffsetDateTime(utc(c.completedAt()));
        return pool.withTransaction(tx -> tx.preparedQuery(INSERT).execute(values)
                .map(rows -> c.withId(rows.iterator().next().getLong("id")))
                .call(saved -> saved.logs().isEmpty()
                        ? Uni.createFrom().voidItem()
                        : tx.preparedQuery(INSERT_LOG).executeBatch(saved.logs().stream()
                                .map(entry -> logTuple(saved.organizationId(), saved.id(), entry)).toList())));
    }

    @Override
    public Uni<Void> appendLog(long organizationId, long campaignId, CampaignLogEntry entry) {
        return appendLog(pool, organizationId, campaignId, entry);
    }

    /** Appends within the caller's transaction, so that the entry commits with the change it explains. */
    static Uni<Void> appendLog(SqlClient client, long organizationId, long campaignId, CampaignLogEntry entry) {
        return client.preparedQuery(INSERT_LOG).execute(logTuple(organizationId, campaignId, entry)).replaceWithVoid();
    }

    @Override
    public Uni<List<CampaignView>> listViews(long organizationId) {
        return pool.preparedQuery(LIST).execute(Tuple.of(organizationId)).map(PostgresCampaignRepository::views);
    }

    @Override
    public Uni<Optional<CampaignView>> findView(long organizationId, long campaignId) {
        return pool.preparedQuery(FIND).execute(Tuple.of(organizationId, campaignId))
                .map(rows -> views(rows).stream().findFirst());
    }

    private static Tuple logTuple(long organizationId, long campaignId, CampaignLogEntry entry) {
        return Tuple.tuple().addLong(organizationId).addLong(campaignId).addOffsetDateTime(utc(entry.ts()))
                .addString(entry.level().wireName()).addString(entry.event()).addString(entry.message())
                .addValue(entry.details() == null ? null : new JsonObject(entry.details()));
    }

    private static List<CampaignView> views(RowSet<Row> rows) {
        List<CampaignView> views = new ArrayList<>(rows.size());
        for (Row row : rows) {
            views.add(new CampaignView(campaign(row), row.getString("workflow_name"),
                    row.getString("telephony_configuration_name"), row.getLong("executed_count"),
                    row.getLong("total_queued_count")));
        }
        return views;
    }

    private static Campaign campaign(Row r) {
        return new Campaign(r.getLong("id"), r.getLong("organization_id"), r.getString("name"),
                r.getLong("workflow_id"), r.getLong("created_by"), r.getLong("telephony_configuration_id"),
                r.getString("source_type"), r.getString("source_id"),
                CampaignState.fromWireName(r.getString("state")).orElseThrow(),
                r.getInteger("total_rows"), r.getInteger("processed_rows"), r.getInteger("failed_rows"),
                CampaignJson.retry((JsonObject) r.getValue("retry_config")), r.getInteger("max_concurrency"),
                CampaignJson.schedule((JsonObject) r.getValue("schedule_config")),
                CampaignJson.breaker((JsonObject) r.getValue("circuit_breaker")),
                r.getLong("parent_campaign_id"), r.getLong("redialed_campaign_id"),
                instant(r.getOffsetDateTime("created_at")), instant(r.getOffsetDateTime("started_at")),
                instant(r.getOffsetDateTime("completed_at")), logs((JsonArray) r.getValue("logs")));
    }

    private static List<CampaignLogEntry> logs(JsonArray array) {
        List<CampaignLogEntry> entries = new ArrayList<>(array.size());
        for (Object o : array) {
            JsonObject e = (JsonObject) o;
            JsonObject details = e.getJsonObject("details");
            entries.add(new CampaignLogEntry(Instant.parse(e.getString("ts")), LogLevel.fromWireName(e.getString("level")),
                    e.getString("event"), e.getString("message"), details == null ? null : details.getMap()));
        }
        return entries;
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    private static Instant instant(OffsetDateTime time) {
        return time == null ? null : time.toInstant();
    }
}
