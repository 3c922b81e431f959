package dev.voiceagent.adapters.postgres.usage;

import static dev.voiceagent.adapters.postgres.shared.Timestamps.instant;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.utc;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.application.report.ReportRepository;
import dev.voiceagent.domain.usage.DailyReport;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Reports aggregated in the database over the runs of a period, read through the (organization_id, created_at)
 * index: one statement per report whatever the number of runs.
 */
@DatabaseAccess
@ApplicationScoped
public class PostgresReportRepository implements ReportRepository {

    private static final String DAY = " FROM workflow_runs r WHERE r.organization_id = $1 AND r.created_at >= $2"
            + " AND r.created_at < $3 AND ($4::bigint IS NULL OR r.workflow_id = $4)";
    private static final String SECONDS = "CASE WHEN jsonb_typeof(r.usage_info->'call_duration_seconds') = 'number'"
            + " THEN (r.usage_info->>'call_duration_seconds')::float8 END";
    /** The bucket of a duration, from the domain's bounds. */
    private static final String BUCKET = DailyReport.BUCKETS.stream()
            .map(b -> b.end() == null ? " ELSE '" + b.label() + "'"
                    : " WHEN seconds < " + b.end() + " THEN '" + b.label() + "'")
            .collect(Collectors.joining("", "CASE", " END"));

    private final Pool pool;

    public PostgresReportRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * A run gathered something when its gathered_context is a non-empty object (the reference's truthiness); its
     * disposition is UNKNOWN when it mapped none.
     */
    @Override
    public Uni<DayCounts> day(long organizationId, Instant from, Instant to, Long workflowId) {
        String sql = """
                WITH day AS (SELECT (r.gathered_context IS NOT NULL AND r.gathered_context <> '{}'::jsonb)
                AS gathered, COALESCE(r.gathered_context->>'mapped_call_disposition', '"""
                + DailyReport.UNKNOWN + "') AS disposition, " + SECONDS + " AS seconds" + DAY + ")"
                + " SELECT 'total' AS kind, NULL AS label, count(*) AS runs FROM day"
                + " UNION ALL SELECT 'transfers', NULL, count(*) FROM day WHERE gathered AND disposition = '"
                + DailyReport.TRANSFER + "'"
                + " UNION ALL SELECT 'disposition', disposition, count(*) FROM day WHERE gathered GROUP BY disposition"
                + " UNION ALL SELECT 'bucket', " + BUCKET + ", count(*) FROM day WHERE seconds >= 0 GROUP BY 2";
        return pool.preparedQuery(sql).execute(Tuple.of(organizationId, utc(from), utc(to), workflowId)).map(rows -> {
            long total = 0;
            long transfers = 0;
            Map<String, Long> dispositions = new HashMap<>();
            Map<String, Long> buckets = new HashMap<>();
            for (Row r : rows) {
                switch (r.getString("kind")) {
                    case "total" -> total = r.getLong("runs");
                    case "transfers" -> transfers = r.getLong("runs");
                    case "disposition" -> dispositions.put(r.getString("label"), r.getLong("runs"));
                    default -> buckets.put(r.getString("label"), r.getLong("runs"));
                }
            }
            return new DayCounts(total, transfers, dispositions, buckets);
        });
    }

    @Override
    public Uni<List<WorkflowOption>> workflows(long organizationId) {
        return pool.preparedQuery("SELECT id, name FROM workflows WHERE organization_id = $1 ORDER BY id")
                .execute(Tuple.of(organizationId)).map(rows -> {
                    List<WorkflowOption> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new WorkflowOption(r.getLong("id"), r.getString("name"))));
                    return out;
                });
    }

    /** The phone number is the one gathered (customer_phone_number), else the one the run started with. */
    @Override
    public Uni<List<RunDetail>> runs(long organizationId, Instant from, Instant to, Long workflowId) {
        return pool.preparedQuery("SELECT COALESCE(NULLIF(r.gathered_context->>'customer_phone_number', ''),"
                        + " r.initial_context->>'phone_number', '') AS phone_number, COALESCE(r.gathered_context->>"
                        + "'mapped_call_disposition', '') AS disposition, COALESCE(" + SECONDS + ", 0) AS seconds,"
                        + " r.workflow_id, r.id, w.name, r.created_at" + DAY.replace(" FROM workflow_runs r", " FROM workflow_runs r JOIN workflows w"
                        + " ON w.id = r.workflow_id") + " ORDER BY r.created_at, r.id")
                .execute(Tuple.of(organizationId, utc(from), utc(to), workflowId)).map(rows -> {
                    List<RunDetail> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new RunDetail(r.getString("phone_number"), r.getString("disposition"),
                                r.getDouble("seconds"), r.getLong("workflow_id"), r.getLong("id"), r.getString("name"),
                                instant(r.getOffsetDateTime("created_at"))));
                    }
                    return out;
                });
    }
}
