package dev.voiceagent.application.voice.runtime.port.out;

import dev.voiceagent.domain.conversation.ConversationState;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.workflow.JsonTree;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a live call stands after its last finished turn, written to its run so that another replica can take the
 * call over (the carrier re-streams it after this replica drained or died): the conversation, the log so far, what was
 * used, when the call connected, and how many times it moved.
 */
public record CallCheckpoint(ConversationState conversation, List<Map<String, Object>> events, TokenUsage tokens,
        double speechSeconds, long spokenCharacters, Instant connectedAt, int moves) {

    public CallCheckpoint {
        events = List.copyOf(events);
    }

    public Map<String, Object> toMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("conversation", conversation.toMap());
        out.put("events", events);
        out.put("tokens", tokens.toMap());
        out.put("speech_seconds", speechSeconds);
        out.put("spoken_characters", spokenCharacters);
        out.put("connected_at", connectedAt == null ? null : connectedAt.toString());
        out.put("moves", moves);
        return out;
    }

    /** The checkpoint a run holds; null when it holds none or one this version cannot read. */
    public static CallCheckpoint fromMap(Map<String, Object> map) {
        if (map == null || !(map.get("conversation") instanceof Map<?, ?>)) {
            return null;
        }
        try {
            List<Map<String, Object>> events = new ArrayList<>();
            if (map.get("events") instanceof List<?> list) {
                list.forEach(e -> {
                    Map<String, Object> event = JsonTree.asMap(e);
                    if (event != null) {
                        events.add(event);
                    }
                });
            }
            Map<String, Object> tokens = JsonTree.asMap(map.get("tokens"));
            TokenUsage usage = tokens == null ? TokenUsage.ZERO : new TokenUsage(number(tokens.get("prompt_tokens")),
                    number(tokens.get("completion_tokens")), number(tokens.get("total_tokens")));
            Object connected = map.get("connected_at");
            return new CallCheckpoint(ConversationState.fromMap(JsonTree.asMap(map.get("conversation"))), events, usage,
                    map.get("speech_seconds") instanceof Number n ? n.doubleValue() : 0,
                    number(map.get("spoken_characters")),
                    connected instanceof String s ? Instant.parse(s) : null, (int) number(map.get("moves")));
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : 0;
    }
}
