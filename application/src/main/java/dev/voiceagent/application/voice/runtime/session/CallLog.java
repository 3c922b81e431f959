package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.TurnEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A call's events as the reference keeps them in logs.realtime_feedback_events and its run page reads them:
 * {type, timestamp, turn, payload} with the rtf-* types of its real-time feedback (user transcription, bot text,
 * node transitions, function calls, interruptions, latency). At most {@link #LIMIT} events, so a long call's memory
 * stays bounded; the last one says how many were left out.
 */
public final class CallLog {

    static final int LIMIT = 2_000;

    private final CallLoop loop;
    private final MediaChannel media;
    private final List<Map<String, Object>> events = new ArrayList<>();
    private int turn;
    private int dropped;

    CallLog(CallLoop loop, MediaChannel media) {
        this.loop = loop;
        this.media = media;
    }

    /** An event of the run's log, shown live too where the channel shows them. */
    void add(String type, Map<String, Object> payload) {
        Map<String, Object> event = show(type, payload);
        if (events.size() >= LIMIT) {
            dropped++;
            return;
        }
        events.add(event);
    }

    /** An event shown live (a browser's) but not kept in the run's log: interim transcripts, speaking state. */
    Map<String, Object> show(String type, Map<String, Object> payload) {
        if ("rtf-pipeline-error".equals(type) && !payload.containsKey("error")) {
            payload = pipelineError(payload);
        }
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("type", type);
        event.put("timestamp", loop.now().toString());
        event.put("turn", turn);
        event.put("payload", payload);
        media.feedback(event);
        return event;
    }

    /**
     * A pipeline error as the reference's dashboard and QA read it ({@code error}, {@code fatal}: the call could not go
     * on), its {@code message} kept for readers of this service's earlier logs.
     */
    public static Map<String, Object> pipelineError(Map<String, Object> payload) {
        Map<String, Object> shaped = new LinkedHashMap<>(payload);
        shaped.put("error", payload.get("message"));
        shaped.putIfAbsent("fatal", false);
        return shaped;
    }

    /** The events a call logged on the replica it moved from (its turn count continues from theirs). */
    void restore(List<Map<String, Object>> earlier) {
        for (Map<String, Object> e : earlier) {
            if (events.size() < LIMIT) {
                events.add(e);
            } else {
                dropped++;
            }
            if (e.get("turn") instanceof Number n) {
                turn = Math.max(turn, n.intValue());
            }
        }
    }

    /** A finished agent turn: its engine events (transitions, functions, extraction, the end) and what it said. */
    void turn(String userText, AgentEngine.TurnResult result) {
        turn++;
        for (TurnEvent e : result.events()) {
            add(dev.voiceagent.domain.conversation.RealtimeFeedback.type(e), e.payload());
        }
        if (result.assistantText() != null && !result.assistantText().isBlank()) {
            add("rtf-bot-text", Map.of("text", result.assistantText()));
        }
    }

    /**
     * The call ended: its reason, unless the conversation's own end already said it (an end-call node or tool); told
     * even when the log is full.
     */
    void ended(String reason) {
        if (events.stream().noneMatch(e -> "rtf-call-ended".equals(e.get("type")))) {
            events.add(show("rtf-call-ended", Map.of("reason", reason)));
        }
    }

    List<Map<String, Object>> events() {
        List<Map<String, Object>> all = new ArrayList<>(events);
        if (dropped > 0) {
            all.add(Map.of("type", "rtf-events-dropped", "timestamp", Instant.now().toString(), "payload",
                    Map.of("count", dropped)));
        }
        return all;
    }
}
