package dev.voiceagent.domain.qa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.domain.conversation.FeedbackEvents;
import dev.voiceagent.domain.workflow.NodeTypes;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import dev.voiceagent.domain.workflow.WorkflowRun;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallReviewTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    private static final WorkflowDefinition DEFINITION = WorkflowDefinition.of(Map.of(
            "nodes", List.of(
                    Map.of("id", "greet", "type", "startCall", "data", Map.of("name", "Greeting", "prompt",
                            "Greet and ask what they need.")),
                    Map.of("id", "book", "type", "agentNode", "data", Map.of("name", "Booking", "prompt",
                            "Book a table.")),
                    Map.of("id", "qa1", "type", "qa", "data", Map.of("name", "Review", "qa_sample_rate", 50,
                            "qa_min_call_duration", 20)),
                    Map.of("id", "qa2", "type", "qa", "data", Map.of("qa_enabled", false))),
            "edges", List.of(Map.of("id", "e1", "source", "greet", "target", "book", "data",
                    Map.of("label", "book")))));

    private static Map<String, Object> event(String type, double seconds, int turn, Map<String, Object> payload) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("type", type);
        e.put("timestamp", T0.plusMillis((long) (seconds * 1000)).toString());
        e.put("turn", turn);
        e.put("payload", payload);
        return e;
    }

    private static final List<Map<String, Object>> CALL = List.of(
            event(FeedbackEvents.BOT_TEXT, 0, 1, Map.of("text", "Hello, how can I help?")),
            event(FeedbackEvents.USER_TRANSCRIPTION, 2.5, 2, Map.of("text", "I'd like", "final", false)),
            event(FeedbackEvents.USER_TRANSCRIPTION, 3.04, 2, Map.of("text", "I'd like a table", "final", true)),
            event(FeedbackEvents.LATENCY_MEASURED, 3.9, 2, Map.of("latency_seconds", 0.8)),
            event(FeedbackEvents.NODE_TRANSITION, 4.0, 2, Map.of("node_id", "book", "transition", "book")),
            event(FeedbackEvents.FUNCTION_CALL_START, 4.1, 2, Map.of("function_name", "check_tables")),
            event(FeedbackEvents.BOT_TEXT, 4.6, 2, Map.of("text", "For how many?")),
            event(FeedbackEvents.TTFB_METRIC, 4.7, 2, Map.of("ttfb_seconds", 0.31)),
            event(FeedbackEvents.USER_TRANSCRIPTION, 7.0, 3, Map.of("text", "Two", "final", true)),
            event(FeedbackEvents.LATENCY_MEASURED, 7.5, 3, Map.of("latency_seconds", 1.234)),
            event(FeedbackEvents.BOT_TEXT, 8.0, 3, Map.of("text", "Booked.")));

    @Test
    void theCallIsSplitByTheNodeThatHeldEachPartAndTheCallersWordsStayWithTheNodeThatHeardThem() {
        List<CallReview.Segment> segments = CallReview.segments(CALL, DEFINITION);

        assertThat(segments).extracting(CallReview.Segment::nodeId).containsExactly("greet", "book");
        assertThat(CallReview.transcript(segments.get(0).events(), CallReview.start(CALL))).isEqualTo("""
                [0.0s] assistant: Hello, how can I help?
                [3.0s] user: I'd like a table""");
        assertThat(CallReview.transcript(segments.get(1).events(), CallReview.start(CALL))).isEqualTo("""
                [4.1s] [tool_call]: check_tables
                [4.6s] assistant: For how many?
                [7.0s] user: Two
                [8.0s] assistant: Booked.""");
        assertThat(CallReview.nodeSummary(segments.get(1))).isEqualTo("Booking: Book a table.");
    }

    @Test
    void aDefinitionWithoutAStartNodeIsReviewedAsOneWholeCall() {
        List<CallReview.Segment> segments = CallReview.segments(CALL.subList(0, 3), WorkflowDefinition.of(Map.of(
                "nodes", List.of(), "edges", List.of())));
        assertThat(segments).extracting(CallReview.Segment::nodeId).containsExactly(CallReview.WHOLE_CALL);
    }

    @Test
    void theFiguresAreTheReferencesAndTheyFillThePromptsPlaceholdersInEitherBraces() {
        Map<String, Object> metrics = CallReview.metrics(CALL, 42.0);
        assertThat(metrics).containsEntry("call_duration_seconds", 42.0).containsEntry("num_turns", 3)
                .containsEntry("avg_latency_seconds", 1.02).containsEntry("max_latency_seconds", 1.23)
                .containsEntry("avg_ttfb_seconds", 0.31);
        assertThat(CallReview.metrics(List.of(), null)).containsEntry("num_turns", 0)
                .containsEntry("avg_latency_seconds", null);

        String prompt = CallReview.systemPrompt("Node: {{node_summary}} / before: {previous_conversation_summary}\n"
                + "{{metrics}}\n{transcript} {{unknown}}", "Booking", "They asked for a table", "user: hi",
                Map.of("num_turns", 2));
        assertThat(prompt).isEqualTo("Node: Booking / before: They asked for a table\n{\n  \"num_turns\": 2\n}\n"
                + "user: hi {{unknown}}");
    }

    @Test
    void theAnswerIsReadFromItsJsonEvenFencedAndAnAnswerThatIsNoObjectKeepsOnlyItsText() {
        Map<String, Object> result = CallReview.nodeResult("Booking", """
                ```json
                {"tags": [{"tag": "DEAD_AIR", "reason": "a long pause"}], "overall_sentiment": "positive",
                 "call_quality_score": 8, "summary": "Booked a table."}
                ```""");
        assertThat(result).containsEntry("node_name", "Booking").containsEntry("score", 8L)
                .containsEntry("summary", "Booked a table.").containsEntry("overall_sentiment", "positive");
        assertThat(result.get("tags")).isEqualTo(List.of(Map.of("tag", "DEAD_AIR", "reason", "a long pause")));
        assertThat(result.get("raw_response").toString()).startsWith("```json");

        Map<String, Object> notAnObject = CallReview.nodeResult("Booking", "[1, 2] sorry");
        assertThat(notAnObject).containsEntry("tags", List.of()).containsEntry("summary", "")
                .containsEntry("score", null).containsEntry("raw_response", "[1, 2] sorry");
    }

    @Test
    void theTopLevelTagsAreEveryReviewsTagsSortedOnceAndOtherAnnotationsStay() {
        Map<String, Object> first = CallReview.annotated(Map.of("note", "kept"), "qa_a", Map.of("node_results",
                Map.of("greet", Map.of("tags", List.of("USER_FRUSTRATED", Map.of("tag", "DEAD_AIR"))))));
        Map<String, Object> both = CallReview.annotated(first, "qa_b", Map.of("node_results",
                Map.of("book", Map.of("tags", List.of(Map.of("tag", "DEAD_AIR"), "ASSISTANT_IN_LOOP")))));

        assertThat(both).containsKeys("note", "qa_a", "qa_b");
        assertThat(both.get("tags")).isEqualTo(List.of("ASSISTANT_IN_LOOP", "DEAD_AIR", "USER_FRUSTRATED"));
        assertThat(CallReview.annotated(Map.of("tags", List.of("STALE")), "qa_a", Map.of("skipped", true)))
                .doesNotContainKey("tags");
    }

    @Test
    void aNodeLeavesOutShortCallsVoicemailAndCallsOutsideItsSample() {
        QaNode review = QaNode.of(DEFINITION).getFirst();
        assertThat(QaNode.triggered(DEFINITION)).containsExactly("qa1");
        assertThat(review.systemPrompt()).isEqualTo(NodeTypes.QA_SYSTEM_PROMPT);
        assertThat(review.annotationKey()).isEqualTo("qa_qa1");

        assertThat(review.skipReason(run(12.0, "completed"), 1))
                .hasValue("call duration (12.0s) below minimum (20s)");
        assertThat(review.skipReason(run(30.0, "voicemail_detected"), 1))
                .hasValue("voicemail call and QA voicemail calls is disabled");
        assertThat(review.skipReason(run(30.0, "completed"), 51))
                .hasValue("excluded by sampling (50% sample rate, rolled 51)");
        assertThat(review.skipReason(run(30.0, "completed"), 50)).isEmpty();
        assertThat(QaNode.of("v", Map.of("qa_voicemail_calls", true)).skipReason(run(30.0, "voicemail_detected"),
                100)).isEmpty();
    }

    private static WorkflowRun run(double seconds, String disposition) {
        return new WorkflowRun(1L, 1, 1, 1, "run", "twilio", "outbound", "completed", true, null, null,
                Map.of("call_duration_seconds", seconds), null, null,
                Map.of("call_disposition", disposition, "mapped_call_disposition", disposition), null, null, null, T0);
    }
}
