package dev.voiceagent.domain.conversation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScenarioTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");

    private static ChatTurn turn(String id, String user, String node, List<TurnEvent> events) {
        return new ChatTurn(id, T0, user, "answer", T0, events, TokenUsage.ZERO,
                new ConversationState(node, List.of(), Map.of(), 0, false, null));
    }

    private static TextChatSession chat() {
        TurnEvent moved = new TurnEvent(TurnEvent.NODE_TRANSITION, Map.of("node_id", "2", "transition", "Book"));
        TurnEvent extracted = new TurnEvent(TurnEvent.VARIABLES_EXTRACTED, Map.of("values", Map.of("age", 42L)));
        return TextChatSession.empty().withTurn(turn("t0", null, "1", List.of()), T0)
                .withTurn(turn("t1", "book", "2", List.of(moved)), T0)
                .withTurn(turn("t2", "42", "2", List.of(extracted)), T0);
    }

    @Test
    void aChatBecomesStepsWithTheirPathsAndCorrectionsReplaceWhatWasRecorded() {
        Scenario s = Scenario.record(7, 3, " Books ", Map.of("first_name", "Ann"), chat(),
                List.of(new Scenario.Correction(2, null, null, Map.of("age", 43))), T0, T0);
        assertThat(s.name()).isEqualTo("Books");
        assertThat(s.messages()).containsExactly("book", "42");
        assertThat(s.steps().get(1).expected()).isEqualTo(new Scenario.Expectation("2", List.of("Book"), Map.of()));
        assertThat(s.steps().get(2).expected().extracted()).containsEntry("age", 43);
        assertThat(Scenario.stepsFromMaps(s.stepsToMaps())).isEqualTo(s.steps());
        assertThatThrownBy(() -> Scenario.record(7, 3, "x", Map.of(), chat(),
                List.of(new Scenario.Correction(5, "9", null, null)), T0, T0)).hasMessageContaining("turn 5");
        // a rewound chat saves the turns up to the cursor
        assertThat(Scenario.record(7, 3, "x", Map.of(), chat().rewoundTo("t1"), List.of(), T0, T0).steps()).hasSize(2);
    }

    @Test
    void aReplayComparesNodeEdgesAndValuesAndNamesTheFirstDivergence() {
        Scenario s = Scenario.record(7, 3, "x", Map.of(), chat(), List.of(), T0, T0);
        var same = ScenarioReplay.compare(s.steps().get(2), new ScenarioReplay.ChatTurnOutcome(
                new Scenario.Expectation("2", List.of(), Map.of("age", 42.0)), "other words"));
        assertThat(same.matched()).isTrue();
        var elsewhere = ScenarioReplay.compare(s.steps().get(1), new ScenarioReplay.ChatTurnOutcome(
                new Scenario.Expectation("1", List.of(), Map.of()), "hm"));
        assertThat(elsewhere.differences()).extracting(ScenarioReplay.Difference::field)
                .containsExactly("node_id", "transitions");
        var ended = ScenarioReplay.compare(s.steps().get(2), null);
        ScenarioReplay replay = ScenarioReplay.of(List.of(same, elsewhere, ended), TokenUsage.ZERO);
        assertThat(replay.passed()).isFalse();
        assertThat(replay.firstDivergence()).isEqualTo(new ScenarioReplay.Divergence(1, "node_id", "2", "1"));
        assertThat(ended.differences().getFirst().field()).isEqualTo("reached");
    }
}
