package dev.voiceagent.domain.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkflowRunCostTest {

    private static WorkflowRun run(Map<String, Object> usage, Map<String, Object> cost) {
        return new WorkflowRun(7L, 1, 2, 3L, "WR-1", "twilio", "outbound", "completed", true, null, null, usage, cost,
                Map.of(), Map.of(), null, null, null, Instant.parse("2026-11-23T10:00:00Z"));
    }

    @Test
    void theCostSummaryIsDerivedFromTheRunsUsageAsTheReferenceDoes() {
        assertThat(run(null, null).costSummary()).as("nothing used yet").isNull();
        assertThat(run(Map.of("call_duration_seconds", 42.5), null).costSummary())
                .containsEntry("call_duration_seconds", 42.5).containsEntry("dograh_token_usage", 0);
        assertThat(run(Map.of("call_duration_seconds", 12), Map.of("dograh_token_usage", 31)).costSummary())
                .containsEntry("call_duration_seconds", 12.0).containsEntry("dograh_token_usage", 31);
        assertThat(run(null, Map.of("total_cost_usd", 0.25)).costSummary())
                .as("legacy cost in dollars: 1 token = 1 cent").containsEntry("dograh_token_usage", 25.0)
                .containsEntry("call_duration_seconds", 0.0);
    }
}
