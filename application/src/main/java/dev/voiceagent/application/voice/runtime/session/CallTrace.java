package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.trace.ModelSpans;
import dev.voiceagent.application.trace.RunTrace;
import dev.voiceagent.application.trace.TraceSpan;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.FeedbackEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A call's trace, put together on the call's loop from what its session already measures: a span per turn (the
 * greeting, then each of the caller's turns, from their final words, or from when voice activity heard them stop once
 * the answer reports it, to the last thing that happened before their next turn), inside it the stages of the answer
 * ({@code stt.final}, {@code end_of_turn}, {@code llm}: {@link ModelSpans}, {@code tts}) and what happened during it
 * as events (the first audio out, barge-ins, what the caller said). A turn is sent when the next one begins or the call
 * ends; a caller's words before the agent answered belong to the same turn. Memory is bounded: a turn keeps at most
 * {@link #LIMIT} happenings. With nowhere to send, nothing is kept.
 */
final class CallTrace {

    static final int LIMIT = 500;
    private static final System.Logger LOG = System.getLogger(CallTrace.class.getName());

    private final RunTrace trace;
    private Turn open;
    private int turns;
    private boolean ended;

    /** Something that happened on the call, at its instant: an event logged, or a finished agent turn. */
    private record Happened(Instant at, FeedbackEvent event, AgentEngine.TurnResult result, String model) {
    }

    /** A turn being put together: when it began, the stages of its answer (null where not measured), what happened. */
    private static final class Turn {

        final int number;
        Instant start;
        Instant callerStopped;
        Instant finalTranscriptAt;
        Instant askedAt;
        Instant firstTextAt;
        Instant firstAudioAt;
        Instant playedAt;
        boolean answered;
        final List<Happened> happened = new ArrayList<>();

        Turn(int number, Instant start) {
            this.number = number;
            this.start = start;
        }

        void add(Happened h) {
            if (happened.size() < LIMIT) {
                happened.add(h);
            }
            answered |= h.result() != null;
        }
    }

    CallTrace(RunTrace trace, Instant start) {
        this.trace = trace;
        this.open = new Turn(0, start);
    }

    boolean recording() {
        return trace.recording() && !ended;
    }

    /** An event of the call, as it is logged: the caller's final words after an answer begin a new turn. */
    void event(FeedbackEvent event, Instant at) {
        if (!recording()) {
            return;
        }
        if (event instanceof FeedbackEvent.UserTranscription t && t.isFinal()
                && (open.number == 0 || open.answered)) {
            send(open);
            open = new Turn(++turns, at);
        }
        open.add(new Happened(at, event, null, null));
    }

    /** The agent finished a turn (its model's answer, tools and transitions), {@code model} having answered. */
    void result(AgentEngine.TurnResult result, Instant at, String model) {
        if (recording()) {
            open.add(new Happened(at, null, result, model));
        }
    }

    /**
     * An answer's first audio went out at {@code playedAt}: its stages (the caller stopped, the final transcript, the
     * model asked, its first words, the voice's first audio; null where not measured: a speech-to-speech model's are
     * its own) are the open turn's, which began when the caller stopped.
     */
    void answered(Instant callerStopped, Instant finalTranscriptAt, Instant askedAt, Instant firstTextAt,
            Instant firstAudioAt, Instant playedAt, String model) {
        if (!recording() || open.number == 0) {
            return;
        }
        open.callerStopped = callerStopped;
        open.start = callerStopped.isBefore(open.start) ? callerStopped : open.start;
        open.finalTranscriptAt = finalTranscriptAt;
        open.askedAt = askedAt;
        open.firstTextAt = firstTextAt;
        open.firstAudioAt = firstAudioAt;
        open.playedAt = playedAt;
    }

    /** The call ended: the open turn is sent and the trace's top span ends. */
    void ended(Instant at, String reason) {
        if (!recording()) {
            return;
        }
        send(open);
        Map<String, Object> attributes = new LinkedHashMap<>();
        attributes.put("voiceagent.call.end_reason", reason);
        attributes.put("voiceagent.call.turns", turns);
        if (!ended) {
            deliver(() -> trace.end(at, attributes));
        }
        ended = true;
    }

    /** The turn as spans, ending at its last happening (or its first audio out). */
    private void send(Turn turn) {
        if (turn.happened.isEmpty()) {
            return; // a greeting that said nothing
        }
        Instant end = turn.start;
        for (Happened h : turn.happened) {
            end = later(end, h.at());
        }
        end = later(end, turn.playedAt);
        TraceSpan.Builder span = new TraceSpan.Builder(turn.number == 0 ? "greeting" : "turn", turn.start)
                .attribute("voiceagent.turn", turn.number);
        if (turn.callerStopped != null) {
            stages(turn, span);
        }
        StringBuilder said = new StringBuilder();
        for (Happened h : turn.happened) {
            if (h.result() != null) {
                Instant asked = turn.askedAt != null && !turn.askedAt.isAfter(h.at()) ? turn.askedAt : h.at();
                span.child(ModelSpans.of(h.result(), h.model(), asked, turn.firstTextAt, h.at()));
                continue;
            }
            switch (h.event()) {
                case FeedbackEvent.UserTranscription t when t.isFinal() ->
                        span.event("user_transcript", h.at(), Map.of("voiceagent.text", t.text()));
                case FeedbackEvent.BotText t -> said.append(said.isEmpty() ? "" : " ").append(t.text());
                case FeedbackEvent.Interruption i -> span.event("interruption", h.at(), ModelSpans.attributes(
                        "voiceagent.interruption.heard_text", i.heardText(), "voiceagent.interruption.heard_ms",
                        i.heardMs(), "voiceagent.interruption.barge_in_ms", i.bargeInMs()));
                case FeedbackEvent.PipelineError e -> span.event("error", h.at(), ModelSpans.attributes(
                        "voiceagent.error", e.message(), "voiceagent.error.fatal", e.fatal()));
                case FeedbackEvent.ProviderSwitched e -> span.event("provider_switched", h.at(),
                        ModelSpans.attributes("voiceagent.stage", e.stage(), "voiceagent.provider.from", e.from(),
                                "voiceagent.provider.to", e.to()));
                case FeedbackEvent.UserDtmf d -> span.event("dtmf", h.at(), Map.of("voiceagent.dtmf", d.digit()));
                default -> {
                    // the rest (speaking started and stopped, interim transcripts, figures) is in the stages
                }
            }
        }
        if (!said.isEmpty()) {
            span.attribute("voiceagent.assistant.text", said.toString());
            span.attribute("voiceagent.tts.characters", said.length());
        }
        TraceSpan done = span.end(end);
        deliver(() -> trace.span(done));
    }

    /** Hands something to the trace; a trace that fails is given up on, never the call. */
    private void deliver(Runnable handing) {
        try {
            handing.run();
        } catch (RuntimeException e) {
            ended = true;
            LOG.log(System.Logger.Level.WARNING, "the call's trace is given up: {0}", e.toString());
        }
    }

    /** The answer's stages as child spans: each one measured, from voice activity hearing the caller stop. */
    private static void stages(Turn turn, TraceSpan.Builder span) {
        Instant stopped = turn.callerStopped;
        if (turn.finalTranscriptAt != null && !turn.finalTranscriptAt.isBefore(stopped)) {
            span.child(new TraceSpan.Builder("stt.final", stopped).end(turn.finalTranscriptAt));
        }
        if (turn.askedAt != null && !turn.askedAt.isBefore(stopped)) {
            span.child(new TraceSpan.Builder("end_of_turn", stopped).end(turn.askedAt));
        }
        Instant textOrAsked = turn.firstTextAt == null ? turn.askedAt : turn.firstTextAt;
        if (turn.firstAudioAt != null && textOrAsked != null) {
            span.child(new TraceSpan.Builder("tts", textOrAsked)
                    .attribute("voiceagent.tts.time_to_first_byte_ms", millis(textOrAsked, turn.firstAudioAt))
                    .end(turn.firstAudioAt));
        }
        if (turn.playedAt != null) {
            span.attribute("voiceagent.voice_to_voice_ms", millis(stopped, turn.playedAt));
            span.event("first_audio", turn.playedAt, Map.of());
        }
    }

    private static long millis(Instant from, Instant to) {
        return Duration.between(from, to).toMillis();
    }

    private static Instant later(Instant a, Instant b) {
        return b != null && b.isAfter(a) ? b : a;
    }
}
