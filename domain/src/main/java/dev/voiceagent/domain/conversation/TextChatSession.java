package dev.voiceagent.domain.conversation;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.workflow.JsonTree;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A text chat's turns, in the reference's session_data shape. A rewind puts a cursor on an earlier turn:
 * the conversation continues from that turn's checkpoint, and the turns after it move to
 * discarded_future when the next message is sent (a rewind back to no cursor undoes it until then).
 */
public record TextChatSession(String status, String cursorTurnId, List<ChatTurn> turns,
        List<Map<String, Object>> discardedFuture) {

    public static final int VERSION = 1;
    public static final String IDLE = "idle";
    public static final String REWOUND = "rewound";
    public static final String COMPLETED = "completed";

    public TextChatSession {
        turns = List.copyOf(turns);
        discardedFuture = List.copyOf(discardedFuture);
    }

    public static TextChatSession empty() {
        return new TextChatSession(IDLE, null, List.of(), List.of());
    }

    public boolean completed() {
        return COMPLETED.equals(status);
    }

    /** The turns the conversation consists of: up to the cursor when there is one. */
    public List<ChatTurn> activeTurns() {
        if (cursorTurnId == null) {
            return turns;
        }
        for (int i = 0; i < turns.size(); i++) {
            if (turns.get(i).id().equals(cursorTurnId)) {
                return turns.subList(0, i + 1);
            }
        }
        return turns;
    }

    /** Where the next turn starts from: the last active turn's checkpoint, else {@code initial}. */
    public ConversationState resumeFrom(ConversationState initial) {
        List<ChatTurn> active = activeTurns();
        return active.isEmpty() ? initial : active.getLast().checkpoint();
    }

    /** The session with a new turn: the turns after the cursor are set aside first. */
    public TextChatSession withTurn(ChatTurn turn, Instant now) {
        List<ChatTurn> active = new ArrayList<>(activeTurns());
        List<Map<String, Object>> discarded = new ArrayList<>(discardedFuture);
        if (active.size() < turns.size()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("rewound_from_turn_id", cursorTurnId);
            entry.put("discarded_at", now.toString());
            entry.put("turns", turns.subList(active.size(), turns.size()).stream().map(ChatTurn::toMap).toList());
            discarded.add(entry);
        }
        active.add(turn);
        return new TextChatSession(turn.checkpoint().ended() ? COMPLETED : IDLE, null, active, discarded);
    }

    /** A cursor on one of the turns (null: none); an unknown turn is refused. */
    public TextChatSession rewoundTo(String turnId) {
        if (turnId != null && turns.stream().noneMatch(t -> t.id().equals(turnId))) {
            throw new DomainRuleViolation("Turn not found in text chat session: " + turnId);
        }
        return new TextChatSession(turnId == null ? IDLE : REWOUND, turnId, turns, discardedFuture);
    }

    public TextChatSession completedNow() {
        return new TextChatSession(COMPLETED, cursorTurnId, turns, discardedFuture);
    }

    /** The session_data document. */
    public Map<String, Object> toMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("version", VERSION);
        out.put("status", status);
        out.put("cursor_turn_id", cursorTurnId);
        out.put("turns", turns.stream().map(ChatTurn::toMap).toList());
        out.put("discarded_future", discardedFuture);
        out.put("simulator", Map.of("enabled", false, "config", Map.of()));
        return out;
    }

    public static TextChatSession fromMap(Map<String, Object> map) {
        if (map == null) {
            return empty();
        }
        List<ChatTurn> turns = new ArrayList<>();
        List<?> raw = JsonTree.asList(map.get("turns"));
        if (raw != null) {
            raw.forEach(t -> turns.add(ChatTurn.fromMap(JsonTree.asMap(t))));
        }
        List<Map<String, Object>> discarded = new ArrayList<>();
        List<?> rawDiscarded = JsonTree.asList(map.get("discarded_future"));
        if (rawDiscarded != null) {
            rawDiscarded.forEach(d -> discarded.add(JsonTree.asMap(d)));
        }
        String status = JsonTree.asString(map.get("status"));
        return new TextChatSession(status == null ? IDLE : status, JsonTree.asString(map.get("cursor_turn_id")), turns,
                discarded);
    }
}
