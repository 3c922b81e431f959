package dev.voiceagent.domain.conversation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A conversation as the reference's run page reads it: logs.realtime_feedback_events, each {type, timestamp, turn,
 * payload} of its real-time feedback types: rtf-user-transcription, rtf-bot-text, rtf-node-transition,
 * rtf-function-call-start / -end, rtf-variables-extracted, rtf-call-ended. Voice calls write them as they happen;
 * text chats from their turns.
 */
public final class RealtimeFeedback {

    public static final String KEY = "realtime_feedback_events";

    private RealtimeFeedback() {
    }

    /** The feedback type of an engine event. */
    public static String type(TurnEvent event) {
        return switch (event.type()) {
            case TurnEvent.NODE_TRANSITION -> "rtf-node-transition";
            case TurnEvent.TOOL_CALL_STARTED -> "rtf-function-call-start";
            case TurnEvent.TOOL_CALL_RESULT -> "rtf-function-call-end";
            case TurnEvent.VARIABLES_EXTRACTED -> "rtf-variables-extracted";
            case TurnEvent.SESSION_END -> "rtf-call-ended";
            default -> "rtf-" + event.type().replace('_', '-');
        };
    }

    public static Map<String, Object> event(String type, Instant at, int turn, Map<String, Object> payload) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("type", type);
        event.put("timestamp", at.toString());
        event.put("turn", turn);
        event.put("payload", payload);
        return event;
    }

    /** A text chat's turns (the active ones: a rewind forgets the rest) as feedback events, in order. */
    public static List<Map<String, Object>> of(List<ChatTurn> turns) {
        List<Map<String, Object>> events = new ArrayList<>();
        int n = 0;
        for (ChatTurn t : turns) {
            n++;
            if (t.userText() != null && !t.userText().isBlank()) {
                events.add(event("rtf-user-transcription", t.createdAt(), n, Map.of("text", t.userText(),
                        "final", true)));
            }
            Instant at = t.answeredAt() == null ? t.createdAt() : t.answeredAt();
            for (TurnEvent e : t.events()) {
                events.add(event(type(e), at, n, e.payload()));
            }
            if (t.assistantText() != null && !t.assistantText().isBlank()) {
                events.add(event("rtf-bot-text", at, n, Map.of("text", t.assistantText())));
            }
        }
        return events;
    }
}
