package dev.voiceagent.domain.conversation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The outcome of replaying a scenario: per turn the expected and the actual path, the differences, and the
 * first divergence. Node, edges taken and extracted values are compared; the answers are shown side by side.
 */
public record ScenarioReplay(boolean passed, List<TurnOutcome> turns, Divergence firstDivergence, TokenUsage usage) {

    /** One difference: which part of the path, what was expected, what happened. */
    public record Difference(String field, Object expected, Object actual) {

        public Map<String, Object> toMap() {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("field", field);
            out.put("expected", expected);
            out.put("actual", actual);
            return out;
        }
    }

    /** The first turn that did not go as expected, and how. */
    public record Divergence(int turn, String field, Object expected, Object actual) {
    }

    /** One turn replayed (actual null when the conversation ended before it). */
    public record TurnOutcome(int turn, String userText, Scenario.Expectation expected, Scenario.Expectation actual,
            String recordedAnswer, String answer, List<Difference> differences) {

        public TurnOutcome {
            differences = List.copyOf(differences);
        }

        public boolean matched() {
            return differences.isEmpty();
        }
    }

    /** Compares a replayed turn with its step. */
    public static TurnOutcome compare(Scenario.Step step, ChatTurnOutcome replayed) {
        List<Difference> differences = new ArrayList<>();
        Scenario.Expectation expected = step.expected();
        if (replayed == null) {
            differences.add(new Difference("reached", true, false));
            return new TurnOutcome(step.turn(), step.userText(), expected, null, step.recordedAnswer(), null,
                    differences);
        }
        Scenario.Expectation actual = replayed.path();
        if (!Objects.equals(expected.nodeId(), actual.nodeId())) {
            differences.add(new Difference("node_id", expected.nodeId(), actual.nodeId()));
        }
        if (!expected.transitions().equals(actual.transitions())) {
            differences.add(new Difference("transitions", expected.transitions(), actual.transitions()));
        }
        if (!sameValues(expected.extracted(), actual.extracted())) {
            differences.add(new Difference("extracted", expected.extracted(), actual.extracted()));
        }
        return new TurnOutcome(step.turn(), step.userText(), expected, actual, step.recordedAnswer(), replayed.answer(),
                differences);
    }

    /** Numbers compare by value (42 and 42.0 are the same extracted age). */
    private static boolean sameValues(Map<String, Object> a, Map<String, Object> b) {
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        for (Map.Entry<String, Object> e : a.entrySet()) {
            Object x = e.getValue();
            Object y = b.get(e.getKey());
            boolean same = x instanceof Number n && y instanceof Number m ? n.doubleValue() == m.doubleValue()
                    : Objects.equals(x, y);
            if (!same) {
                return false;
            }
        }
        return true;
    }

    /** What a replayed turn did: its path and its answer. */
    public record ChatTurnOutcome(Scenario.Expectation path, String answer) {
    }

    public static ScenarioReplay of(List<TurnOutcome> turns, TokenUsage usage) {
        Divergence first = null;
        for (TurnOutcome t : turns) {
            if (!t.matched()) {
                Difference d = t.differences().getFirst();
                first = new Divergence(t.turn(), d.field(), d.expected(), d.actual());
                break;
            }
        }
        return new ScenarioReplay(first == null, turns, first, usage);
    }
}
