package dev.voiceagent.domain.conversation;

import dev.voiceagent.domain.workflow.JsonTree;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A voice call's turns read back from its log (the run's logs.realtime_feedback_events: {type, timestamp, turn,
 * payload}), for comparing a call with a saved scenario: the agent's turns in order, each with the path it took (the
 * node it ended at, the edges taken by label, the values extracted) and what it said; and the call's figures (the
 * voice-to-voice latency of each answer, the barge-ins).
 */
public final class CallTurns {

    private CallTurns() {
    }

    /** One agent turn of the call (1 is the opening). */
    public record Turn(int turn, Scenario.Expectation path, String answer) {
    }

    /**
     * The agent's turns, 1 to the last one logged: the events a turn logged carry its number (the engine's
     * transitions and extractions, what the agent said); the node carries over from turn to turn from the start node.
     */
    public static List<Turn> of(List<Map<String, Object>> events, String startNodeId) {
        int last = 0;
        for (Map<String, Object> e : events) {
            if (e.get("turn") instanceof Number n && agentEvent(type(e))) {
                last = Math.max(last, n.intValue());
            }
        }
        List<Turn> turns = new ArrayList<>();
        String node = startNodeId;
        for (int t = 1; t <= last; t++) {
            List<String> transitions = new ArrayList<>();
            Map<String, Object> extracted = new LinkedHashMap<>();
            StringBuilder said = new StringBuilder();
            for (Map<String, Object> e : events) {
                if (!(e.get("turn") instanceof Number n) || n.intValue() != t) {
                    continue;
                }
                Map<String, Object> payload = JsonTree.asMap(e.get("payload"));
                payload = payload == null ? Map.of() : payload;
                switch (type(e)) {
                    case FeedbackEvents.NODE_TRANSITION -> {
                        transitions.add(JsonTree.asString(payload.get("transition")));
                        String to = JsonTree.asString(payload.get("node_id"));
                        node = to == null ? node : to;
                    }
                    case FeedbackEvents.VARIABLES_EXTRACTED -> {
                        Map<String, Object> values = JsonTree.asMap(payload.get("values"));
                        if (values != null) {
                            extracted.putAll(values);
                        }
                    }
                    case FeedbackEvents.BOT_TEXT -> {
                        String text = JsonTree.asString(payload.get("text"));
                        if (text != null && !text.isBlank()) {
                            said.append(said.isEmpty() ? "" : " ").append(text.strip());
                        }
                    }
                    default -> {
                        // the caller's words, latency and the rest are not part of the path
                    }
                }
            }
            turns.add(new Turn(t, new Scenario.Expectation(node, transitions, extracted), said.toString()));
        }
        return turns;
    }

    /** The voice-to-voice latency of each answer, in order: the caller stopped speaking to the agent's first audio. */
    public static List<Long> latenciesMs(List<Map<String, Object>> events) {
        return numbers(events, FeedbackEvents.LATENCY_MEASURED, "user_stop_to_bot_started_ms");
    }

    /** How long each barge-in took, in order: the caller started speaking to the agent's audio stopping. */
    public static List<Long> bargeInsMs(List<Map<String, Object>> events) {
        return numbers(events, FeedbackEvents.INTERRUPTION, "barge_in_ms");
    }

    private static List<Long> numbers(List<Map<String, Object>> events, String type, String field) {
        List<Long> out = new ArrayList<>();
        for (Map<String, Object> e : events) {
            Map<String, Object> payload = JsonTree.asMap(e.get("payload"));
            if (type.equals(type(e)) && payload != null && payload.get(field) instanceof Number n) {
                out.add(n.longValue());
            }
        }
        return out;
    }

    private static String type(Map<String, Object> event) {
        return String.valueOf(event.get("type"));
    }

    private static boolean agentEvent(String type) {
        return FeedbackEvents.agents(type);
    }
}
