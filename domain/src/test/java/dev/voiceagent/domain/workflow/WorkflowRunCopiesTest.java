package dev.voiceagent.domain.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The run's copies change what their names say and nothing else: each is compared with the run built in full with
 * that one change, every component of the original set to a value of its own (a swapped pair of the 19 would show).
 */
class WorkflowRunCopiesTest {

    private static final Instant CREATED = Instant.parse("2026-11-27T09:00:00Z");
    private static final Map<String, Object> USAGE = Map.of("call_duration_seconds", 12.5);
    private static final Map<String, Object> COST = Map.of("dograh_token_usage", 3);
    private static final Map<String, Object> INITIAL = Map.of("first_name", "Ann");
    private static final Map<String, Object> GATHERED = Map.of("call_disposition", "done");
    private static final Map<String, Object> LOGS = Map.of("realtime_feedback_events", List.of());
    private static final Map<String, Object> ANNOTATIONS = Map.of("embed", Map.of("source", "embed_widget"));

    private static final WorkflowRun RUN = new WorkflowRun(7L, 1, 2, 3, "WR-1", "twilio", "outbound", "running", false,
            "recordings/1/7.wav", "transcripts/1/7.txt", USAGE, COST, INITIAL, GATHERED, LOGS, ANNOTATIONS, 40L,
            CREATED);

    @Test
    void aNewRunIsInitializedWithOnlyItsNameModeCallTypeAndInitialContext() {
        assertThat(WorkflowRun.initialized(1, 2, 3, "WR-1", "twilio", "outbound", INITIAL, CREATED)).isEqualTo(
                new WorkflowRun(null, 1, 2, 3, "WR-1", "twilio", "outbound", "initialized", false, null, null, null,
                        null, INITIAL, null, null, null, null, CREATED));
    }

    @Test
    void eachCopyChangesItsOwnComponents() {
        assertThat(RUN.withId(8)).isEqualTo(new WorkflowRun(8L, 1, 2, 3, "WR-1", "twilio", "outbound", "running",
                false, "recordings/1/7.wav", "transcripts/1/7.txt", USAGE, COST, INITIAL, GATHERED, LOGS, ANNOTATIONS,
                40L, CREATED));
        assertThat(RUN.withState("completed", true)).isEqualTo(new WorkflowRun(7L, 1, 2, 3, "WR-1", "twilio",
                "outbound", "completed", true, "recordings/1/7.wav", "transcripts/1/7.txt", USAGE, COST, INITIAL,
                GATHERED, LOGS, ANNOTATIONS, 40L, CREATED));
        Map<String, Object> other = Map.of("k", "v");
        assertThat(RUN.withUsage(other)).isEqualTo(new WorkflowRun(7L, 1, 2, 3, "WR-1", "twilio", "outbound",
                "running", false, "recordings/1/7.wav", "transcripts/1/7.txt", other, COST, INITIAL, GATHERED, LOGS,
                ANNOTATIONS, 40L, CREATED));
        assertThat(RUN.withInitialContext(other)).isEqualTo(new WorkflowRun(7L, 1, 2, 3, "WR-1", "twilio",
                "outbound", "running", false, "recordings/1/7.wav", "transcripts/1/7.txt", USAGE, COST, other,
                GATHERED, LOGS, ANNOTATIONS, 40L, CREATED));
        assertThat(RUN.withGathered(other)).isEqualTo(new WorkflowRun(7L, 1, 2, 3, "WR-1", "twilio", "outbound",
                "running", false, "recordings/1/7.wav", "transcripts/1/7.txt", USAGE, COST, INITIAL, other, LOGS,
                ANNOTATIONS, 40L, CREATED));
        assertThat(RUN.withLogs(other)).isEqualTo(new WorkflowRun(7L, 1, 2, 3, "WR-1", "twilio", "outbound",
                "running", false, "recordings/1/7.wav", "transcripts/1/7.txt", USAGE, COST, INITIAL, GATHERED, other,
                ANNOTATIONS, 40L, CREATED));
        assertThat(RUN.withAnnotations(other)).isEqualTo(new WorkflowRun(7L, 1, 2, 3, "WR-1", "twilio", "outbound",
                "running", false, "recordings/1/7.wav", "transcripts/1/7.txt", USAGE, COST, INITIAL, GATHERED, LOGS,
                other, 40L, CREATED));
        assertThat(RUN.withCampaign(41)).isEqualTo(new WorkflowRun(7L, 1, 2, 3, "WR-1", "twilio", "outbound",
                "running", false, "recordings/1/7.wav", "transcripts/1/7.txt", USAGE, COST, INITIAL, GATHERED, LOGS,
                ANNOTATIONS, 41L, CREATED));
        assertThat(RUN.withArtifacts("r.wav", "t.txt", other)).isEqualTo(new WorkflowRun(7L, 1, 2, 3, "WR-1",
                "twilio", "outbound", "running", false, "r.wav", "t.txt", other, COST, INITIAL, GATHERED, LOGS,
                ANNOTATIONS, 40L, CREATED));
    }

    @Test
    void anErrorJoinsTheGatheredContextWithoutChangingTheOriginal() {
        WorkflowRun failed = RUN.withError("media never connected");
        assertThat(failed.gatheredContext()).containsExactlyInAnyOrderEntriesOf(Map.of("call_disposition", "done",
                "error", "media never connected"));
        assertThat(RUN.gatheredContext()).doesNotContainKey("error");
        assertThat(failed.withGathered(GATHERED)).isEqualTo(RUN);
        assertThat(RUN.withGathered(null).withError("x").gatheredContext()).isEqualTo(Map.of("error", "x"));
    }
}
