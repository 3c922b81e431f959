package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.FeedbackEvent;
import dev.voiceagent.domain.conversation.FeedbackEvents;
import dev.voiceagent.domain.conversation.TurnEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A call's {@link FeedbackEvent}s as they happen: each one shown live where the channel shows them (a browser) and,
 * unless it is only shown, kept for the run's log (logs.realtime_feedback_events, in the reference's shape:
 * {@link FeedbackEvents}). At most {@link #LIMIT} are kept, so a long call's memory stays bounded; the last one says
 * how many were left out. On the call's loop only.
 */
final class CallLog {

    static final int LIMIT = 2_000;

    private final CallLoop loop;
    private final MediaChannel media;
    private final CallTrace trace;
    private final List<Map<String, Object>> events = new ArrayList<>();
    private int turn;
    private int dropped;
    /** The conversation's own end was logged (an end-call node or tool): the call's end says nothing more. */
    private boolean endLogged;
    /** A turn's text waiting for its speech to start. */
    private FeedbackEvent held;
    private Map<String, Object> endDetails = Map.of();

    CallLog(CallLoop loop, MediaChannel media, CallTrace trace) {
        this.loop = loop;
        this.media = media;
        this.trace = trace;
    }

    /** The call's trace, which sees every event logged here. */
    CallTrace trace() {
        return trace;
    }

    /** Something happened on the call: shown live, and kept unless it is only shown. */
    void add(FeedbackEvent event) {
        Instant now = loop.now();
        Map<String, Object> logged = FeedbackEvents.event(event, now, turn);
        media.feedback(logged);
        trace.event(event, now);
        if (!event.kept()) {
            return;
        }
        if (event instanceof FeedbackEvent.Engine engine && TurnEvent.SESSION_END.equals(engine.event().type())) {
            endDetails = engine.event().payload(); // a transfer's destination, an end tool's reason
        }
        if (events.size() >= LIMIT) {
            dropped++;
            return;
        }
        events.add(logged);
        if (event instanceof FeedbackEvent.Engine engine && TurnEvent.SESSION_END.equals(engine.event().type())) {
            endLogged = true;
        }
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
    void turn(AgentEngine.TurnResult result) {
        turn(result, true, null);
    }

    /**
     * A finished agent turn, as above; when its speech has not started yet, what it said is told once it has
     * ({@link #heard}): the reference's dashboard reads the bot's text after its time-to-first-byte figures and the
     * bot starting to speak, and takes the bot to have stopped speaking only when its text is the last message.
     * {@code model} answered (null: none named).
     */
    void turn(AgentEngine.TurnResult result, boolean speaking, String model) {
        trace.result(result, loop.now(), model);
        turn++;
        for (TurnEvent e : result.events()) {
            add(new FeedbackEvent.Engine(e));
        }
        if (result.assistantText() != null && !result.assistantText().isBlank()) {
            heard(); // an earlier turn's text still held is told first
            held = new FeedbackEvent.BotText(result.assistantText());
            if (speaking) {
                heard();
            }
        }
    }

    /** The answer started to be heard (or will not be): what its turn said, held until now, is told. */
    void heard() {
        if (held != null) {
            FeedbackEvent text = held;
            held = null;
            add(text);
        }
    }

    /**
     * The call ended: its reason, unless the conversation's own end already said it (an end-call node or tool); told
     * even when the log is full.
     */
    void ended(String reason) {
        heard();
        trace.ended(loop.now(), reason);
        if (!endLogged) {
            FeedbackEvent ended = new FeedbackEvent.CallEnded(reason);
            Map<String, Object> logged = FeedbackEvents.event(ended, loop.now(), turn);
            media.feedback(logged);
            events.add(logged);
            endLogged = true;
        }
    }

    /** What the conversation's own end said (the end tool's details, a transfer's destination), or nothing. */
    Map<String, Object> endDetails() {
        return endDetails;
    }

    List<Map<String, Object>> events() {
        List<Map<String, Object>> all = new ArrayList<>(events);
        if (dropped > 0) {
            all.add(FeedbackEvents.event(new FeedbackEvent.EventsDropped(dropped), loop.now(), turn));
        }
        return all;
    }
}
