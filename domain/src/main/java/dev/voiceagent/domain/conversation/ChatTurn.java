package dev.voiceagent.domain.conversation;

import dev.voiceagent.domain.workflow.JsonTree;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One completed turn of a text chat: what the user said (none for the opening turn), what the assistant
 * answered, what happened on the way (transitions, tool calls, extractions), the tokens used and the
 * conversation's checkpoint after it (where a rewind resumes from).
 */
public record ChatTurn(String id, Instant createdAt, String userText, String assistantText, Instant answeredAt,
        List<TurnEvent> events, TokenUsage usage, ConversationState checkpoint) {

    public static final String COMPLETED = "completed";

    public ChatTurn {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(checkpoint, "checkpoint");
        events = List.copyOf(events);
        usage = usage == null ? TokenUsage.ZERO : usage;
    }

    /** The node the conversation was at when the turn ended. */
    public String nodeId() {
        return checkpoint.currentNodeId();
    }

    /** The edges taken during the turn, by label, in order. */
    public List<String> transitions() {
        return events.stream().filter(e -> TurnEvent.NODE_TRANSITION.equals(e.type()))
                .map(e -> JsonTree.asString(e.payload().get("transition"))).toList();
    }

    /** The values extracted during the turn. */
    public Map<String, Object> extracted() {
        Map<String, Object> out = new LinkedHashMap<>();
        events.stream().filter(e -> TurnEvent.VARIABLES_EXTRACTED.equals(e.type()))
                .forEach(e -> {
                    Map<String, Object> values = JsonTree.asMap(e.payload().get("values"));
                    if (values != null) {
                        out.putAll(values);
                    }
                });
        return out;
    }

    Map<String, Object> toMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", id);
        out.put("status", COMPLETED);
        out.put("created_at", createdAt.toString());
        out.put("user_message", userText == null ? null : message(userText, createdAt));
        out.put("assistant_message", assistantText == null ? null : message(assistantText, answeredAt));
        out.put("node_id", nodeId());
        out.put("events", events.stream().map(TurnEvent::toMap).toList());
        out.put("usage", usage.toMap());
        out.put("checkpoint_after_turn", checkpoint.toMap());
        return out;
    }

    private static Map<String, Object> message(String text, Instant at) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("text", text);
        out.put("created_at", at == null ? null : at.toString());
        return out;
    }

    static ChatTurn fromMap(Map<String, Object> map) {
        Map<String, Object> user = JsonTree.asMap(map.get("user_message"));
        Map<String, Object> assistant = JsonTree.asMap(map.get("assistant_message"));
        List<TurnEvent> events = new ArrayList<>();
        List<?> raw = JsonTree.asList(map.get("events"));
        if (raw != null) {
            for (Object o : raw) {
                Map<String, Object> e = JsonTree.asMap(o);
                events.add(new TurnEvent(JsonTree.asString(e.get("type")), JsonTree.asMap(e.get("payload"))));
            }
        }
        Map<String, Object> usage = JsonTree.asMap(map.get("usage"));
        TokenUsage tokens = usage == null ? TokenUsage.ZERO : new TokenUsage(number(usage.get("prompt_tokens")),
                number(usage.get("completion_tokens")), number(usage.get("total_tokens")));
        return new ChatTurn(String.valueOf(map.get("id")), Instant.parse(String.valueOf(map.get("created_at"))),
                user == null ? null : JsonTree.asString(user.get("text")),
                assistant == null ? null : JsonTree.asString(assistant.get("text")),
                assistant == null || assistant.get("created_at") == null ? null
                        : Instant.parse(String.valueOf(assistant.get("created_at"))),
                events, tokens, ConversationState.fromMap(JsonTree.asMap(map.get("checkpoint_after_turn"))));
    }

    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : 0;
    }
}
