package dev.voiceagent.application.workflow;

import dev.voiceagent.domain.workflow.JsonTree;
import dev.voiceagent.domain.workflow.WorkflowRun;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What the recent runs of a workflow say before a campaign is launched with it. */
public record PilotReview(long workflowId, int runCount, int completedCount, Map<String, Long> dispositions,
        Double averageDurationSeconds, int failures, List<Problem> recentProblems) {

    public record Problem(long runId, Instant createdAt, String problem) {
    }

    static final List<String> FAILED_DISPOSITIONS = List.of("failed", "error", "busy", "no-answer", "no_answer");

    /** Pure summary of the given runs (newest first). */
    public static PilotReview of(long workflowId, List<WorkflowRun> runs, int maxProblems) {
        Map<String, Long> dispositions = new TreeMap<>();
        double durationSum = 0;
        int durations = 0;
        int completed = 0;
        int failures = 0;
        List<Problem> problems = new ArrayList<>();
        for (WorkflowRun run : runs) {
            if (run.completed()) {
                completed++;
            }
            String disposition = run.disposition();
            dispositions.merge(disposition == null ? "unknown" : disposition, 1L, Long::sum);
            if (run.durationSeconds() != null) {
                durationSum += run.durationSeconds();
                durations++;
            }
            String problem = problem(run);
            if (problem != null) {
                failures++;
                if (problems.size() < maxProblems) {
                    problems.add(new Problem(run.id(), run.createdAt(), problem));
                }
            }
        }
        return new PilotReview(workflowId, runs.size(), completed, dispositions,
                durations == 0 ? null : durationSum / durations, failures, problems);
    }

    private static String problem(WorkflowRun run) {
        Map<String, Object> gathered = run.gatheredContext();
        if (gathered != null && gathered.get("error") != null) {
            return "Error: " + gathered.get("error");
        }
        String disposition = run.disposition();
        if (disposition != null && FAILED_DISPOSITIONS.contains(disposition)) {
            return "Call ended as " + disposition;
        }
        if (run.completed() && gathered != null && JsonTree.asList(gathered.get("call_tags")) instanceof List<?> tags
                && tags.contains("user_hangup_early")) {
            return "Caller hung up early";
        }
        return null;
    }
}
