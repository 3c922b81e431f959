package dev.voiceagent.domain.conversation;

import dev.voiceagent.domain.workflow.JsonTree;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Something that happened during a turn, as the reference's text chat records it: node_transition,
 * tool_call_started, tool_call_result, variables_extracted, session_end.
 */
public record TurnEvent(String type, Map<String, Object> payload) {

    public static final String NODE_TRANSITION = "node_transition";
    public static final String TOOL_CALL_STARTED = "tool_call_started";
    public static final String TOOL_CALL_RESULT = "tool_call_result";
    public static final String VARIABLES_EXTRACTED = "variables_extracted";
    public static final String SESSION_END = "session_end";
    public static final String MODEL_CALL_LIMIT = "model_call_limit";

    public TurnEvent {
        payload = payload == null ? Map.of() : JsonTree.asMap(JsonTree.freeze(payload));
    }

    public Map<String, Object> toMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("type", type);
        out.put("payload", payload);
        return out;
    }
}
