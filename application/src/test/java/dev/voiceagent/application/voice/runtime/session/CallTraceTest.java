package dev.voiceagent.application.voice.runtime.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.trace.RunTrace;
import dev.voiceagent.application.trace.TraceSpan;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.ConversationState;
import dev.voiceagent.domain.conversation.FeedbackEvent;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.conversation.TurnEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallTraceTest {

    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");

    /** A trace that keeps what it is sent. */
    private static final class Kept implements RunTrace {

        final List<TraceSpan> spans = new ArrayList<>();
        Map<String, Object> ended;
        boolean on = true;

        @Override
        public boolean recording() {
            return on;
        }

        @Override
        public void span(TraceSpan span) {
            spans.add(span);
        }

        @Override
        public void end(Instant at, Map<String, Object> attributes) {
            ended = new LinkedHashMap<>(attributes);
        }
    }

    private static Instant at(long ms) {
        return T0.plusMillis(ms);
    }

    private static AgentEngine.TurnResult result(String node, String text, TurnEvent... events) {
        return new AgentEngine.TurnResult(new ConversationState(node, List.of(), Map.of(), 1, false, null), text,
                List.of(events), new TokenUsage(40, 9, 49), 1);
    }

    @Test
    void eachTurnBeginsWithTheCallersFinalWordsAfterAnAnswerAndCarriesItsStages() {
        Kept kept = new Kept();
        CallTrace trace = new CallTrace(kept, at(0));
        trace.result(result("start", "Hello"), at(10), "gpt");
        trace.event(new FeedbackEvent.BotText("Hello"), at(20));
        trace.event(new FeedbackEvent.UserTranscription("I'd like", false), at(900));
        trace.event(new FeedbackEvent.UserTranscription("I'd like a table", true), at(1_300));
        assertThat(kept.spans).extracting(TraceSpan::name).containsExactly("greeting"); // sent when turn 1 began

        trace.result(result("book", "For how many?", new TurnEvent(TurnEvent.TOOL_CALL_STARTED, Map.of(
                "function_name", "check", "tool_call_id", "c1", "arguments", Map.of("day", "Tue")))), at(1_700), "gpt");
        trace.answered(at(1_200), at(1_300), at(1_350), at(1_500), at(1_640), at(1_650), "gpt");
        trace.event(new FeedbackEvent.BotText("For how many?"), at(1_660));
        // the caller cuts in, then says more before the agent answers again: still one turn, then the next
        trace.event(new FeedbackEvent.Interruption("For how", 300, 180L, false), at(2_400));
        trace.event(new FeedbackEvent.UserTranscription("Two", true), at(3_000));
        trace.event(new FeedbackEvent.UserTranscription("people", true), at(3_200));
        trace.ended(at(4_000), "user_hangup");

        assertThat(kept.spans).extracting(TraceSpan::name).containsExactly("greeting", "turn", "turn");
        TraceSpan first = kept.spans.get(1);
        assertThat(first.attributes()).containsEntry("voiceagent.turn", 1).containsEntry("voiceagent.voice_to_voice_ms",
                450L).containsEntry("voiceagent.assistant.text", "For how many?");
        assertThat(first.start()).isEqualTo(at(1_200)); // from when the caller stopped, before their final words
        assertThat(first.end()).isEqualTo(at(2_400));
        assertThat(first.events()).extracting(TraceSpan.Event::name).contains("user_transcript", "first_audio",
                "interruption");
        assertThat(first.children()).extracting(TraceSpan::name).containsExactly("stt.final", "end_of_turn", "tts",
                "llm");
        TraceSpan tts = first.children().get(2);
        assertThat(tts.start()).isEqualTo(at(1_500));
        assertThat(tts.end()).isEqualTo(at(1_640));
        TraceSpan llm = first.children().get(3);
        assertThat(llm.start()).isEqualTo(at(1_350));
        assertThat(llm.attributes()).containsEntry("gen_ai.request.model", "gpt").containsEntry("voiceagent.node.id",
                "book").containsEntry("gen_ai.usage.input_tokens", 40L)
                .containsEntry("voiceagent.llm.time_to_first_token_ms", 150L);
        assertThat(llm.events()).singleElement().satisfies(e -> assertThat(e.attributes())
                .containsEntry("voiceagent.tool.name", "check").containsEntry("voiceagent.tool.arguments", "{\"day\":\"Tue\"}"));
        assertThat(kept.spans.get(2).events()).extracting(TraceSpan.Event::name)
                .containsExactly("user_transcript", "user_transcript");
        assertThat(kept.ended).containsEntry("voiceagent.call.end_reason", "user_hangup")
                .containsEntry("voiceagent.call.turns", 2);

        trace.event(new FeedbackEvent.UserTranscription("late", true), at(5_000));
        assertThat(kept.spans).hasSize(3); // nothing after the end
    }

    @Test
    void withNowhereToSendNothingIsKept() {
        Kept kept = new Kept();
        kept.on = false;
        CallTrace trace = new CallTrace(kept, at(0));
        trace.event(new FeedbackEvent.UserTranscription("hi", true), at(10));
        trace.ended(at(20), "user_hangup");
        assertThat(kept.spans).isEmpty();
        assertThat(kept.ended).isNull();
    }
}
