package dev.voiceagent.domain.conversation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallTurnsTest {

    private static Map<String, Object> event(String type, int turn, Map<String, Object> payload) {
        return Map.of("type", type, "timestamp", "2026-11-26T10:00:00Z", "turn", turn, "payload", payload);
    }

    @Test
    void aCallsLogIsReadBackAsItsAgentTurnsWithTheNodeCarriedOverAndItsFiguresInOrder() {
        List<Map<String, Object>> log = List.of(
                event("rtf-bot-text", 1, Map.of("text", "Hello Ann.")),
                event("rtf-user-transcription", 1, Map.of("text", "I want to book", "final", true)),
                event("rtf-latency-measured", 1, Map.of("user_stop_to_bot_started_ms", 640)),
                event("rtf-node-transition", 2, Map.of("node_id", "booking", "transition", "Book")),
                event("rtf-bot-text", 2, Map.of("text", "Which day?")),
                event("rtf-bot-text", 2, Map.of("text", "Morning or afternoon?")),
                event("rtf-user-transcription", 2, Map.of("text", "Tuesday", "final", true)),
                event("rtf-interruption", 2, Map.of("heard_text", "Which", "barge_in_ms", 130)),
                event("rtf-latency-measured", 2, Map.of("user_stop_to_bot_started_ms", 710)),
                event("rtf-variables-extracted", 3, Map.of("node_id", "booking", "values",
                        Map.of("preferred_day", "Tuesday"))),
                event("rtf-call-ended", 3, Map.of("reason", "user_hangup")));

        List<CallTurns.Turn> turns = CallTurns.of(log, "start");

        assertThat(turns).extracting(CallTurns.Turn::turn).containsExactly(1, 2, 3);
        assertThat(turns.get(0).path()).isEqualTo(new Scenario.Expectation("start", List.of(), Map.of()));
        assertThat(turns.get(0).answer()).isEqualTo("Hello Ann.");
        assertThat(turns.get(1).path()).isEqualTo(new Scenario.Expectation("booking", List.of("Book"), Map.of()));
        assertThat(turns.get(1).answer()).isEqualTo("Which day? Morning or afternoon?");
        // no transition in turn 3: still where turn 2 left it
        assertThat(turns.get(2).path()).isEqualTo(new Scenario.Expectation("booking", List.of(),
                Map.of("preferred_day", "Tuesday")));
        assertThat(turns.get(2).answer()).isEmpty();
        assertThat(CallTurns.latenciesMs(log)).containsExactly(640L, 710L);
        assertThat(CallTurns.bargeInsMs(log)).containsExactly(130L);
    }

    @Test
    void aCallThatLoggedNoAgentTurnHasNone() {
        assertThat(CallTurns.of(List.of(event("rtf-call-ended", 0, Map.of("reason", "pipeline_error"))), "start"))
                .isEmpty();
        assertThat(CallTurns.of(List.of(), "start")).isEmpty();
    }
}
