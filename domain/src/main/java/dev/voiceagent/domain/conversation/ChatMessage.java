package dev.voiceagent.domain.conversation;

import dev.voiceagent.domain.workflow.JsonTree;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One message of a conversation with a language model: the system prompt, what the user said, what the
 * assistant said (and the functions it called), or the result of one of those calls.
 */
public record ChatMessage(Role role, String content, List<ToolCall> toolCalls, String toolCallId) {

    public enum Role {
        SYSTEM, USER, ASSISTANT, TOOL;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public ChatMessage {
        Objects.requireNonNull(role, "role");
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    }

    public static ChatMessage system(String text) {
        return new ChatMessage(Role.SYSTEM, text, List.of(), null);
    }

    public static ChatMessage user(String text) {
        return new ChatMessage(Role.USER, text, List.of(), null);
    }

    public static ChatMessage assistant(String text, List<ToolCall> calls) {
        return new ChatMessage(Role.ASSISTANT, text, calls, null);
    }

    public static ChatMessage tool(String toolCallId, String result) {
        return new ChatMessage(Role.TOOL, result, List.of(), toolCallId);
    }

    Map<String, Object> toMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("role", role.wireName());
        out.put("content", content);
        if (!toolCalls.isEmpty()) {
            out.put("tool_calls", toolCalls.stream().map(ToolCall::toMap).toList());
        }
        if (toolCallId != null) {
            out.put("tool_call_id", toolCallId);
        }
        return out;
    }

    static ChatMessage fromMap(Map<String, Object> map) {
        Role role = Role.valueOf(String.valueOf(map.get("role")).toUpperCase(Locale.ROOT));
        List<ToolCall> calls = new ArrayList<>();
        List<?> raw = JsonTree.asList(map.get("tool_calls"));
        if (raw != null) {
            raw.forEach(c -> calls.add(ToolCall.fromMap(JsonTree.asMap(c))));
        }
        return new ChatMessage(role, JsonTree.asString(map.get("content")), calls,
                JsonTree.asString(map.get("tool_call_id")));
    }
}
