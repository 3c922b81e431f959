package dev.voiceagent.application.report;

import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Out-port: the organization's runs of a period, aggregated in the database. */
public interface ReportRepository {

    /** Runs created in [from, to): totals, transfers, runs per disposition and runs per duration bucket. */
    record DayCounts(long totalRuns, long transfers, Map<String, Long> dispositions, Map<String, Long> buckets) {
    }

    record WorkflowOption(long id, String name) {
    }

    record RunDetail(String phoneNumber, String disposition, double durationSeconds, long workflowId, long runId,
            String workflowName, Instant createdAt) {
    }

    Uni<DayCounts> day(long organizationId, Instant from, Instant to, Long workflowId);

    Uni<List<WorkflowOption>> workflows(long organizationId);

    Uni<List<RunDetail>> runs(long organizationId, Instant from, Instant to, Long workflowId);
}
