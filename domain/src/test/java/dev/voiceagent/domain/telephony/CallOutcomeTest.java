package dev.voiceagent.domain.telephony;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.domain.workflow.WorkflowRun;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallOutcomeTest {

    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    private final WorkflowRun run = new WorkflowRun(5L, 1, 2, 3, "WR-TEL-OUT-00000001", "simulator", "outbound",
            "initialized", false, null, null, null, null, Map.of("phone_number", "+1"), null, null, null, null, T0);

    private static CallAttempt attempt(CallStatus status, Integer duration) {
        return new CallAttempt(1L, 1, 5, "c", status, T0, null, T0, duration);
    }

    @Test
    void anAnsweredCallMarksTheRunRunningAndItsEndRecordsTheDuration() {
        WorkflowRun running = CallOutcome.applyTo(run, attempt(CallStatus.IN_PROGRESS, null));
        assertThat(running.state()).isEqualTo("running");
        assertThat(running.completed()).isFalse();
        WorkflowRun done = CallOutcome.applyTo(running, attempt(CallStatus.COMPLETED, 42));
        assertThat(done.completed()).isTrue();
        assertThat(done.state()).isEqualTo("completed");
        assertThat(done.durationSeconds()).isEqualTo(42.0);
        assertThat(done.disposition()).isNull();
    }

    @Test
    void aCallThatNeverConnectedGetsItsStatusAsDispositionAndTags() {
        WorkflowRun busy = CallOutcome.applyTo(run, attempt(CallStatus.BUSY, 0));
        assertThat(busy.completed()).isTrue();
        assertThat(busy.disposition()).isEqualTo("busy");
        assertThat(busy.gatheredContext()).containsEntry("call_disposition", "busy")
                .containsEntry("call_tags", List.of("not_connected", "telephony_busy"));
        assertThat(busy.durationSeconds()).isZero();
        assertThat(CallOutcome.applyTo(busy, attempt(CallStatus.BUSY, 0)).gatheredContext().get("call_tags"))
                .isEqualTo(List.of("not_connected", "telephony_busy"));
    }

    @Test
    void ringingChangesNothing() {
        assertThat(CallOutcome.applyTo(run, attempt(CallStatus.RINGING, null))).isSameAs(run);
    }
}
