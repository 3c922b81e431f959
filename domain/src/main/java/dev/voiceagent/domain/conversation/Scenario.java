package dev.voiceagent.domain.conversation;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.workflow.JsonTree;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A saved text chat used as a regression test of its agent: the user's messages, in order, and for each turn
 * (the opening one included) the path the conversation took: the node it ended at, the edges taken and the
 * values extracted. Replaying it sends the same messages to the agent's current version and compares the path
 * turn by turn; what the assistant said is shown, not compared (a model words things differently each time).
 */
public record Scenario(long runId, long workflowId, String name, Map<String, Object> initialContext, List<Step> steps,
        Instant createdAt, Instant updatedAt) {

    public static final int MAX_NAME = 255;

    /** One turn: what the user said (null for the opening turn), the expected path, what was said back then. */
    public record Step(int turn, String userText, Expectation expected, String recordedAnswer) {

        Map<String, Object> toMap() {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("turn", turn);
            out.put("user_text", userText);
            out.put("expected", expected.toMap());
            out.put("recorded_answer", recordedAnswer);
            return out;
        }

        static Step fromMap(Map<String, Object> map) {
            return new Step(((Number) map.get("turn")).intValue(), JsonTree.asString(map.get("user_text")),
                    Expectation.fromMap(JsonTree.asMap(map.get("expected"))), JsonTree.asString(map.get("recorded_answer")));
        }
    }

    /** The path of one turn: the node it ended at, the edges taken (by label) and the values extracted. */
    public record Expectation(String nodeId, List<String> transitions, Map<String, Object> extracted) {

        public Expectation {
            transitions = transitions == null ? List.of() : List.copyOf(transitions);
            extracted = extracted == null ? Map.of() : JsonTree.asMap(JsonTree.freeze(extracted));
        }

        public static Expectation of(ChatTurn turn) {
            return new Expectation(turn.nodeId(), turn.transitions(), turn.extracted());
        }

        public Map<String, Object> toMap() {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("node_id", nodeId);
            out.put("transitions", transitions);
            out.put("extracted", extracted);
            return out;
        }

        static Expectation fromMap(Map<String, Object> map) {
            List<String> transitions = new ArrayList<>();
            List<?> raw = JsonTree.asList(map.get("transitions"));
            if (raw != null) {
                raw.forEach(t -> transitions.add(String.valueOf(t)));
            }
            return new Expectation(JsonTree.asString(map.get("node_id")), transitions,
                    JsonTree.asMap(map.get("extracted")));
        }
    }

    /** An author's correction of one recorded turn: any field given replaces the recorded one. */
    public record Correction(int turn, String nodeId, List<String> transitions, Map<String, Object> extracted) {
    }

    public Scenario {
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        if (name == null || name.isBlank() || name.strip().length() > MAX_NAME) {
            throw new DomainRuleViolation("name must be 1 to " + MAX_NAME + " characters");
        }
        name = name.strip();
        initialContext = initialContext == null ? Map.of() : JsonTree.asMap(JsonTree.freeze(initialContext));
        steps = List.copyOf(steps);
    }

    /** A scenario from a chat's turns as they stand (up to a rewind's cursor), with the author's corrections. */
    public static Scenario record(long runId, long workflowId, String name, Map<String, Object> initialContext,
            TextChatSession session, List<Correction> corrections, Instant createdAt, Instant now) {
        List<ChatTurn> turns = session.activeTurns();
        if (turns.isEmpty()) {
            throw new DomainRuleViolation("The chat has no turns to save");
        }
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < turns.size(); i++) {
            ChatTurn t = turns.get(i);
            if (i > 0 && t.userText() == null) {
                continue;
            }
            steps.add(new Step(steps.size(), t.userText(), Expectation.of(t), t.assistantText()));
        }
        for (Correction o : corrections == null ? List.<Correction>of() : corrections) {
            if (o.turn() < 0 || o.turn() >= steps.size()) {
                throw new DomainRuleViolation("expectations: turn " + o.turn() + " is not a turn of the chat (0 to "
                        + (steps.size() - 1) + ")");
            }
            Step s = steps.get(o.turn());
            Expectation e = s.expected();
            steps.set(o.turn(), new Step(s.turn(), s.userText(), new Expectation(
                    o.nodeId() != null ? o.nodeId() : e.nodeId(), o.transitions() != null ? o.transitions()
                    : e.transitions(), o.extracted() != null ? o.extracted() : e.extracted()), s.recordedAnswer()));
        }
        return new Scenario(runId, workflowId, name, initialContext, steps, createdAt, now);
    }

    /** The user's messages, in order. */
    public List<String> messages() {
        return steps.stream().map(Step::userText).filter(Objects::nonNull).toList();
    }

    public List<Map<String, Object>> stepsToMaps() {
        return steps.stream().map(Step::toMap).toList();
    }

    public static List<Step> stepsFromMaps(List<?> raw) {
        List<Step> steps = new ArrayList<>();
        if (raw != null) {
            raw.forEach(s -> steps.add(Step.fromMap(JsonTree.asMap(s))));
        }
        return steps;
    }
}
