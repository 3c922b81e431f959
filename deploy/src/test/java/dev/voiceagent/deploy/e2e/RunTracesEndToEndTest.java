package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.OtlpReceiver;
import dev.voiceagent.deploy.support.OtlpReceiver.Received;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A run's trace end to end, against a local OTLP receiver that stands in for the operator's collector (Quarkus's
 * OpenTelemetry SDK turned on and pointed at it) and for each organization's Langfuse project (the host it saved):
 * the spans, their parents and attributes, the run's own trace id, and the Basic authorization of each organization.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(OtlpReceiver.class)
class RunTracesEndToEndTest {

    private static final String TRACING = "/api/v1/organizations/tracing-credentials";
    private static final String LANGFUSE_PATH = "/api/public/otel/v1/traces";

    private String key;
    private long workflow;

    private RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    @BeforeEach
    void organization() {
        OtlpReceiver.status = 200;
        key = Api.createKey(Api.signUp("traced"), "k");
        TextChatEndToEndTest.useSimulator(key);
        workflow = TextChatEndToEndTest.createWorkflow(key, TextChatEndToEndTest.bookingAgent(), null);
    }

    private void langfuse(String apiKey, String publicKey, String secretKey) {
        as(apiKey).body(Map.of("host", OtlpReceiver.base, "public_key", publicKey, "secret_key", secretKey,
                "project_id", "proj-1")).post(TRACING).then().statusCode(200);
    }

    private static String basic(String publicKey, String secretKey) {
        return "Basic " + Base64.getEncoder().encodeToString((publicKey + ":" + secretKey)
                .getBytes(StandardCharsets.UTF_8));
    }

    /** A chat: the greeting, one message, and its trace id as the run says. */
    private JsonPath chat(String apiKey, long workflowId, String text) {
        String sessions = "/api/v1/workflow/" + workflowId + "/text-chat/sessions";
        long run = as(apiKey).body(Map.of("initial_context", Map.of("first_name", "Ann", "company", "Acme Dental")))
                .post(sessions).then().statusCode(200).extract().jsonPath().getLong("workflow_run_id");
        as(apiKey).body(Map.of("text", text)).post(sessions + "/" + run + "/messages").then().statusCode(200);
        return as(apiKey).get("/api/v1/workflow/" + workflowId + "/runs/" + run).then().statusCode(200).extract()
                .jsonPath();
    }

    private static List<Received> spans(Predicate<Received> which, int atLeast) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(15));
        while (true) {
            List<Received> found = OtlpReceiver.SPANS.stream().filter(which).toList();
            if (found.size() >= atLeast) {
                Thread.sleep(300); // what came in the same batch
                return OtlpReceiver.SPANS.stream().filter(which).toList();
            }
            assertThat(Instant.now()).as("spans received").isBefore(deadline);
            Thread.sleep(100);
        }
    }

    private static Received named(List<Received> spans, String name) {
        return spans.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no span " + name + " in " + spans.stream().map(Received::name)
                        .toList()));
    }

    @Test
    void aChatsTurnsAreOneTraceWithTheRunsIdOnTheCollectorAndTheOrganizationsLangfuse() throws Exception {
        langfuse(key, "pk-lf-traced-1", "sk-lf-secret-1");
        JsonPath run = chat(key, workflow, "I want to book an appointment");
        String traceId = run.getString("trace_id");
        assertThat(traceId).matches("[0-9a-f]{32}");

        // the collector: the greeting's turn and the message's, each a top span of the run's trace
        List<Received> collector = spans(s -> s.traceId().equals(traceId) && s.path().startsWith("/collector"), 6);
        assertThat(collector).allSatisfy(s -> assertThat(s.authorization()).isNull());
        List<Received> tops = collector.stream().filter(s -> s.name().startsWith("chat ") && !s.name().equals(
                "chat turn")).toList();
        assertThat(tops).hasSize(2);
        Received top = tops.getFirst();
        assertThat(top.parentSpanId()).isEmpty();
        assertThat(top.name()).isEqualTo("chat " + run.getString("name"));
        assertThat(top.attribute("voiceagent.run.id")).isEqualTo(run.getLong("id"));
        assertThat(top.attribute("voiceagent.workflow.id")).isEqualTo(workflow);
        assertThat(top.attribute("voiceagent.workflow.version_id")).isEqualTo(run.getLong("definition_id"));
        assertThat(top.attribute("voiceagent.run.mode")).isEqualTo("textchat");
        assertThat(top.attribute("voiceagent.llm.model")).isEqualTo("simulator/simulator");
        assertThat(top.resource()).containsEntry("service.name", "voice-agent");

        Received message = collector.stream().filter(s -> s.name().equals("chat turn")
                && Long.valueOf(1).equals(s.attribute("voiceagent.turn"))).findFirst().orElseThrow();
        assertThat(message.attribute("voiceagent.user.text")).isEqualTo("I want to book an appointment");
        assertThat(tops).extracting(Received::spanId).contains(message.parentSpanId());
        Received llm = collector.stream().filter(s -> s.name().equals("llm")
                && s.parentSpanId().equals(message.spanId())).findFirst().orElseThrow();
        assertThat(llm.attribute("gen_ai.request.model")).isEqualTo("simulator");
        assertThat(llm.attribute("langfuse.observation.type")).isEqualTo("generation");
        assertThat(llm.attribute("voiceagent.node.id")).isEqualTo("booking");
        assertThat((Long) llm.attribute("gen_ai.usage.input_tokens")).isPositive();
        assertThat(llm.events()).contains("tool_call", "tool_result", "transition");
        assertThat(llm.endNanos()).isGreaterThanOrEqualTo(llm.startNanos());

        // the organization's Langfuse project: the same trace, with its key pair as Basic authorization
        List<Received> langfuse = spans(s -> s.traceId().equals(traceId) && s.path().equals(LANGFUSE_PATH), 6);
        assertThat(langfuse).allSatisfy(s -> assertThat(s.authorization())
                .isEqualTo(basic("pk-lf-traced-1", "sk-lf-secret-1")));
        assertThat(langfuse).extracting(Received::name).containsAll(collector.stream().map(Received::name).toList());
        assertThat(named(langfuse, "llm").attribute("gen_ai.request.model")).isEqualTo("simulator");

        // no secret in any span
        assertThat(OtlpReceiver.SPANS).allSatisfy(s -> assertThat(s.attributes().values().toString())
                .doesNotContain("sk-lf-secret-1").doesNotContain("pk-lf-traced-1"));
    }

    @Test
    void changedCredentialsActOnTheNextChatDeletedOnesStopItAndOtherOrganizationsNeverGetIt() throws Exception {
        langfuse(key, "pk-lf-before", "sk-lf-before");
        String other = Api.createKey(Api.signUp("traced-other"), "k");
        TextChatEndToEndTest.useSimulator(other);
        long otherWorkflow = TextChatEndToEndTest.createWorkflow(other, TextChatEndToEndTest.bookingAgent(), null);
        langfuse(other, "pk-lf-other", "sk-lf-other");

        String first = chat(key, workflow, "hello").getString("trace_id");
        assertThat(spans(s -> s.traceId().equals(first) && s.path().equals(LANGFUSE_PATH), 3))
                .allSatisfy(s -> assertThat(s.authorization()).isEqualTo(basic("pk-lf-before", "sk-lf-before")));

        langfuse(key, "pk-lf-after", "sk-lf-after");
        String second = chat(key, workflow, "hello again").getString("trace_id");
        assertThat(spans(s -> s.traceId().equals(second) && s.path().equals(LANGFUSE_PATH), 3))
                .allSatisfy(s -> assertThat(s.authorization()).isEqualTo(basic("pk-lf-after", "sk-lf-after")));

        String others = chat(other, otherWorkflow, "hi").getString("trace_id");
        assertThat(spans(s -> s.traceId().equals(others) && s.path().equals(LANGFUSE_PATH), 3))
                .allSatisfy(s -> assertThat(s.authorization()).isEqualTo(basic("pk-lf-other", "sk-lf-other")));
        assertThat(OtlpReceiver.SPANS).filteredOn(s -> s.traceId().equals(first) || s.traceId().equals(second))
                .allSatisfy(s -> assertThat(String.valueOf(s.authorization())).doesNotContain(
                        Base64.getEncoder().encodeToString("pk-lf-other:sk-lf-other".getBytes(StandardCharsets.UTF_8))));

        as(key).delete(TRACING).then().statusCode(200);
        String third = chat(key, workflow, "and again").getString("trace_id");
        spans(s -> s.traceId().equals(third) && s.path().startsWith("/collector"), 3); // the collector still has it
        Thread.sleep(1_200); // a Langfuse batch would have gone by now
        assertThat(OtlpReceiver.SPANS).filteredOn(s -> s.traceId().equals(third)).extracting(Received::path)
                .allMatch(path -> path.startsWith("/collector"));
    }

    @Test
    void aProjectThatIsDownCostsTheChatNothingAndItsSpansAreCountedAsFailed() throws Exception {
        langfuse(key, "pk-lf-down", "sk-lf-down");
        OtlpReceiver.status = 503;
        long before = System.nanoTime();
        chat(key, workflow, "anyone there?");
        assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(5));
        Instant deadline = Instant.now().plus(Duration.ofSeconds(15));
        while (failed() == 0) {
            assertThat(Instant.now()).as("failed spans counted").isBefore(deadline);
            Thread.sleep(200);
        }
        OtlpReceiver.status = 200;
    }

    @Test
    void aCallIsATraceOfItsTurnsWithEachStageOfEveryAnswer() throws Exception {
        langfuse(key, "pk-lf-call", "sk-lf-call");
        as(key).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                "llm", Map.of("provider", "simulator"), "stt", Map.of("provider", "simulator"),
                "tts", Map.of("provider", "simulator")))))
                .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
        Map<String, Object> definition = Map.of(
                "nodes", List.of(
                        Map.of("id", "start", "type", "startCall", "position", Map.of("x", 0, "y", 0), "data",
                                Map.of("name", "Start", "prompt", "Ask how to help.", "greeting",
                                        "Hello, this is Acme Dental. How can I help?", "greeting_type", "text",
                                        "allow_interrupt", true)),
                        Map.of("id", "end", "type", "endCall", "position", Map.of("x", 0, "y", 200), "data",
                                Map.of("name", "Booked", "prompt", "Your cleaning is booked for Tuesday. Goodbye."))),
                "edges", List.of(Map.of("id", "e1", "source", "start", "target", "end", "data",
                        Map.of("label", "Book", "condition", "book a cleaning on Tuesday"))));
        long calls = as(key).body(Map.of("name", "Dental", "workflow_definition", definition))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        as(key).body(Map.of("name", "Laptop", "config", Map.of("provider", "simulator", "ring_delay_ms", 100,
                "rules", List.of(Map.of("suffix", "", "outcome", "completed", "lines", List.of(
                        "Hi, I have a question.", "Please book a cleaning on Tuesday."), "pause_ms", 400)))))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200);
        long runId = as(key).body(Map.of("workflow_id", calls, "phone_number", "+15550100123"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");
        JsonPath run = null;
        for (int i = 0; i < 600 && (run == null || !run.getBoolean("is_completed")); i++) {
            Thread.sleep(100);
            run = as(key).get("/api/v1/workflow/" + calls + "/runs/" + runId).then().statusCode(200).extract()
                    .jsonPath();
        }
        assertThat(run.getBoolean("is_completed")).isTrue();
        String traceId = run.getString("trace_id");

        List<Received> spans = spans(s -> s.traceId().equals(traceId) && s.path().equals(LANGFUSE_PATH)
                && s.name().startsWith("call "), 1);
        Received call = spans.getFirst();
        assertThat(call.name()).isEqualTo("call " + run.getString("name"));
        assertThat(call.parentSpanId()).isEmpty();
        assertThat(call.attribute("voiceagent.run.mode")).isEqualTo("simulator");
        assertThat(call.attribute("voiceagent.stt.model")).isEqualTo("simulator/simulator");
        assertThat(call.attribute("voiceagent.call.end_reason")).isEqualTo("end_call_node");
        assertThat((Long) call.attribute("voiceagent.call.turns")).isEqualTo(2L);

        List<Received> all = OtlpReceiver.SPANS.stream().filter(s -> s.traceId().equals(traceId)
                && s.path().equals(LANGFUSE_PATH)).toList();
        Received greeting = named(all, "greeting");
        assertThat(greeting.parentSpanId()).isEqualTo(call.spanId());
        assertThat(greeting.attribute("voiceagent.assistant.text")).isEqualTo(
                "Hello, this is Acme Dental. How can I help?");
        List<Received> turns = all.stream().filter(s -> s.name().equals("turn")).toList();
        assertThat(turns).extracting(t -> t.attribute("voiceagent.turn")).containsExactlyInAnyOrder(1L, 2L);
        Received second = turns.stream().filter(t -> Long.valueOf(2).equals(t.attribute("voiceagent.turn")))
                .findFirst().orElseThrow();
        assertThat(second.parentSpanId()).isEqualTo(call.spanId());
        assertThat((Long) second.attribute("voiceagent.voice_to_voice_ms")).isNotNegative();
        assertThat(second.events()).contains("first_audio", "user_transcript");
        assertThat(all).filteredOn(s -> s.parentSpanId().equals(second.spanId())).extracting(Received::name)
                .contains("stt.final", "end_of_turn", "llm", "tts");
        Received llm = all.stream().filter(s -> s.name().equals("llm") && s.parentSpanId().equals(second.spanId()))
                .findFirst().orElseThrow();
        assertThat(llm.attribute("voiceagent.node.id")).isEqualTo("end");
        assertThat(llm.events()).contains("transition");
        assertThat(second.startNanos()).isLessThanOrEqualTo(llm.startNanos());
    }

    private static double failed() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines().filter(l -> l.startsWith("voiceagent_trace_spans_total{")
                        && l.contains("destination=\"langfuse\"") && l.contains("outcome=\"failed\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }
}
