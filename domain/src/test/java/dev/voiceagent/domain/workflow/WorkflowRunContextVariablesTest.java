package dev.voiceagent.domain.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A browser call's context variables (the dashboard's call_context_vars) on its run's initial context. */
class WorkflowRunContextVariablesTest {

    private static WorkflowRun run(Map<String, Object> initialContext) {
        return new WorkflowRun(7L, 1, 2, 3, "Test call", "smallwebrtc", "inbound", "running", false, null, null,
                Map.of(), Map.of(), initialContext, Map.of(), Map.of(), Map.of(), null, Instant.parse(
                        "2026-11-26T10:00:00Z"));
    }

    @Test
    void variablesAreAddedAndReplaceTheirNamesakes() {
        WorkflowRun run = run(Map.of("direction", "inbound", "customer_name", "template value"));
        WorkflowRun with = run.withContextVariables(Map.of("customer_name", "Ada", "order_total", 42.5, "vip", true));
        assertThat(with.initialContext()).containsExactlyInAnyOrderEntriesOf(Map.of("direction", "inbound",
                "customer_name", "Ada", "order_total", 42.5, "vip", true));
        assertThat(run.initialContext()).containsEntry("customer_name", "template value");
        assertThat(run(null).withContextVariables(Map.of("a", "b")).initialContext()).isEqualTo(Map.of("a", "b"));
        assertThat(with.id()).isEqualTo(7L);
        assertThat(with.mode()).isEqualTo("smallwebrtc");
    }

    @Test
    void whatARunCannotTakeIsRefusedWithTheReason() {
        WorkflowRun run = run(Map.of());
        assertThatThrownBy(() -> run.withContextVariables(Map.of("address", Map.of("city", "Paris"))))
                .isInstanceOf(DomainRuleViolation.class).hasMessageContaining("call_context_vars.address");
        assertThatThrownBy(() -> run.withContextVariables(Map.of("tags", List.of("a"))))
                .isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> run.withContextVariables(Map.of("note", "x".repeat(2_001))))
                .isInstanceOf(DomainRuleViolation.class).hasMessageContaining("2,000");
        assertThatThrownBy(() -> run.withContextVariables(Map.of(" ", "x")))
                .isInstanceOf(DomainRuleViolation.class).hasMessageContaining("name");
        Map<String, Object> many = new HashMap<>();
        for (int i = 0; i <= WorkflowRun.MAX_CONTEXT_VARIABLES; i++) {
            many.put("v" + i, i);
        }
        assertThatThrownBy(() -> run.withContextVariables(many)).isInstanceOf(DomainRuleViolation.class)
                .hasMessageContaining("at most 50");
        Map<String, Object> nullValue = new HashMap<>();
        nullValue.put("empty", null);
        assertThatThrownBy(() -> run.withContextVariables(nullValue)).isInstanceOf(DomainRuleViolation.class);
    }
}
