package dev.voiceagent.domain.conversation;

import dev.voiceagent.domain.workflow.JsonTree;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a conversation stands between turns: the current node, the messages so far (without the system
 * prompt, which is composed afresh for the current node), the values gathered, how many times the user
 * has spoken, and whether it has ended (and why). Stored as the checkpoint after each turn, so a rewind
 * resumes from any earlier one.
 */
public record ConversationState(String currentNodeId, List<ChatMessage> messages, Map<String, Object> gathered,
        int userTurns, boolean ended, String endReason) {

    static final int VERSION = 1;

    public ConversationState {
        messages = List.copyOf(messages);
        gathered = gathered == null ? Map.of() : JsonTree.asMap(JsonTree.freeze(gathered));
    }

    /** The checkpoint document: {version, current_node_id, messages, gathered_context, user_turns, ended, end_reason}. */
    public Map<String, Object> toMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("version", VERSION);
        out.put("current_node_id", currentNodeId);
        out.put("messages", messages.stream().map(ChatMessage::toMap).toList());
        out.put("gathered_context", gathered);
        out.put("user_turns", userTurns);
        out.put("ended", ended);
        out.put("end_reason", endReason);
        return out;
    }

    public static ConversationState fromMap(Map<String, Object> map) {
        List<ChatMessage> messages = new ArrayList<>();
        List<?> raw = JsonTree.asList(map.get("messages"));
        if (raw != null) {
            raw.forEach(m -> messages.add(ChatMessage.fromMap(JsonTree.asMap(m))));
        }
        Map<String, Object> gathered = JsonTree.asMap(map.get("gathered_context"));
        return new ConversationState(JsonTree.asString(map.get("current_node_id")), messages,
                gathered == null ? new LinkedHashMap<>() : gathered,
                map.get("user_turns") instanceof Number n ? n.intValue() : 0,
                Boolean.TRUE.equals(map.get("ended")), JsonTree.asString(map.get("end_reason")));
    }
}
