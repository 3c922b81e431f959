package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import dev.voiceagent.deploy.support.WebhookReceiver;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A workflow's QA node reviews each completed run after it ends: a text chat on the simulator model, reviewed by the
 * node's own OpenAI-compatible model, a local server that checks what it is asked and answers as OpenAI does
 * (success, a 503 that passes, a refusal). The review is on the run's annotations and usage, and the run's run.completed
 * waits for it and carries it.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class QaReviewEndToEndTest {

    @Inject
    AgroalDataSource dataSource;

    private Sql sql;
    private String key;
    private ReviewModel model;
    private WebhookReceiver receiver;

    /** An OpenAI-compatible chat completions endpoint that records every request and answers as scripted. */
    static final class ReviewModel implements AutoCloseable {

        record Asked(String authorization, JsonObject body) {

            String system() {
                return body.getJsonArray("messages").getJsonObject(0).getString("content");
            }

            String user() {
                return body.getJsonArray("messages").getJsonObject(1).getString("content");
            }
        }

        final List<Asked> asked = new CopyOnWriteArrayList<>();
        /** Statuses to answer before answering normally (503 = overloaded, 401 = refused). */
        final Queue<Integer> failures = new ConcurrentLinkedQueue<>();
        private final HttpServer server;

        ReviewModel() {
            try {
                server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server.setExecutor(Executors.newCachedThreadPool());
            server.createContext("/v1/chat/completions", exchange -> {
                JsonObject body = new JsonObject(new String(exchange.getRequestBody().readAllBytes(),
                        StandardCharsets.UTF_8));
                asked.add(new Asked(exchange.getRequestHeaders().getFirst("Authorization"), body));
                Integer failure = failures.poll();
                String answer;
                int status = failure == null ? 200 : failure;
                if (failure != null) {
                    answer = "{\"error\": {\"message\": \"" + (failure == 401 ? "Incorrect API key provided"
                            : "The engine is currently overloaded") + "\"}}";
                } else {
                    String system = body.getJsonArray("messages").getJsonObject(0).getString("content");
                    String content = system.startsWith("You are summarizing")
                            ? "The caller asked to book an appointment."
                            : "```json\n{\"tags\": [{\"tag\": \"DEAD_AIR\", \"reason\": \"pause\"}, \"USER_FRUSTRATED\"],"
                                    + " \"overall_sentiment\": \"neutral\", \"call_quality_score\": 7, \"summary\":"
                                    + " \"Segment with " + body.getJsonArray("messages").size() + " messages.\"}\n```";
                    answer = new JsonObject().put("choices", new JsonArray().add(new JsonObject().put("message",
                                    new JsonObject().put("role", "assistant").put("content", content))))
                            .put("usage", new JsonObject().put("prompt_tokens", 100).put("completion_tokens", 20)
                                    .put("total_tokens", 120)).encode();
                }
                byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(status, bytes.length);
                exchange.getResponseBody().write(bytes);
                exchange.close();
            });
            server.start();
        }

        String base() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    private RequestSpecification as() {
        return given().header("X-API-Key", key).contentType(ContentType.JSON);
    }

    @BeforeEach
    void organization() {
        sql = new Sql(dataSource);
        key = Api.createKey(Api.signUp("qa"), "k");
        TextChatEndToEndTest.useSimulator(key);
        model = new ReviewModel();
        receiver = new WebhookReceiver();
    }

    @AfterEach
    void stop() {
        model.close();
        receiver.close();
    }

    private static void await(String what, Duration timeout, BooleanSupplier done) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (!done.getAsBoolean()) {
            assertThat(Instant.now()).as(what).isBefore(deadline);
            Thread.sleep(100);
        }
    }

    @SuppressWarnings("unchecked")
    private long workflow(Map<String, Object> qa) {
        Map<String, Object> definition = TextChatEndToEndTest.bookingAgent();
        Map<String, Object> data = new LinkedHashMap<>(Map.of("name", "Review", "qa_use_workflow_llm", false,
                "qa_provider", "openai", "qa_model", "qa-judge-1", "qa_api_key", "sk-qa-5678", "qa_endpoint",
                model.base(), "qa_min_call_duration", 0));
        data.putAll(qa);
        ((List<Object>) definition.get("nodes")).add(WorkflowEndToEndTest.node("review", "qa", data));
        return TextChatEndToEndTest.createWorkflow(key, definition, null);
    }

    /** A chat that greets, moves to the booking node, hears a day and ends. */
    private long chat(long workflow) {
        String sessions = "/api/v1/workflow/" + workflow + "/text-chat/sessions";
        long run = as().body(Map.of("initial_context", Map.of("first_name", "Ann", "company", "Acme Dental")))
                .post(sessions).then().statusCode(200).extract().jsonPath().getLong("workflow_run_id");
        as().body(Map.of("text", "I want to book an appointment")).post(sessions + "/" + run + "/messages").then()
                .statusCode(200);
        as().body(Map.of("text", "Preferred day is Tuesday")).post(sessions + "/" + run + "/messages").then()
                .statusCode(200);
        as().body(Map.of()).post(sessions + "/" + run + "/end").then().statusCode(200);
        return run;
    }

    private JsonPath reviewed(long workflow, long run) throws InterruptedException {
        await("the QA review stored", Duration.ofSeconds(20), () -> "delivered".equals(sql.queryString(
                "SELECT state FROM webhook_deliveries WHERE workflow_run_id = ? AND event_type = 'workflow.qa'", run)));
        return as().get("/api/v1/workflow/" + workflow + "/runs/" + run).then().statusCode(200).extract().jsonPath();
    }

    @Test
    @SuppressWarnings("unchecked")
    void eachNodesPartIsReviewedWithItsPromptAndTheRunCompletedEventWaitsForTheReviewAndCarriesIt() throws Exception {
        as().body(Map.of("url", receiver.url(), "event_types", List.of("run.completed")))
                .post("/api/v1/webhook-endpoints").then().statusCode(200);
        long workflow = workflow(Map.of("qa_system_prompt", "Judge {{node_summary}}\nBefore: {{previous_conversation_summary}}"
                + "\nFigures: {{metrics}}"));
        long run = chat(workflow);
        JsonPath detail = reviewed(workflow, run);

        // the start node's part, then the booking node's: a summary of what came before, then its review
        assertThat(model.asked).hasSize(3);
        assertThat(model.asked).allSatisfy(a -> assertThat(a.authorization()).isEqualTo("Bearer sk-qa-5678"));
        assertThat(model.asked).allSatisfy(a -> assertThat(a.body().getString("model")).isEqualTo("qa-judge-1"));
        ReviewModel.Asked start = model.asked.get(0);
        assertThat(start.system()).startsWith("Judge Start: You book dental appointments for {{company}}.\nBefore: \n")
                .contains("\"num_turns\": 2").contains("\"call_duration_seconds\": null");
        assertThat(start.user()).startsWith("## Transcript\n[0.0s] assistant: Hello Ann, this is Acme Dental.\n")
                .contains("s] user: I want to book an appointment").doesNotContain("Tuesday");
        assertThat(model.asked.get(1).system()).startsWith("You are summarizing a portion of a voice AI conversation.");
        assertThat(model.asked.get(1).user()).startsWith("## Conversation\n[0.0s] assistant: Hello Ann")
                .doesNotContain("Tuesday");
        ReviewModel.Asked booking = model.asked.get(2);
        assertThat(booking.system()).startsWith("Judge Booking: Ask which day suits them.")
                .contains("Before: The caller asked to book an appointment.");
        assertThat(booking.user()).contains("user: Preferred day is Tuesday").doesNotContain("I want to book");

        Map<String, Object> review = detail.getMap("annotations.qa_review");
        assertThat(review).containsEntry("model", "qa-judge-1");
        Map<String, Object> results = (Map<String, Object>) review.get("node_results");
        assertThat(results).containsOnlyKeys("start", "booking");
        assertThat((Map<String, Object>) results.get("booking")).containsEntry("node_name", "Booking")
                .containsEntry("score", 7).containsEntry("overall_sentiment", "neutral")
                .containsEntry("summary", "Segment with 2 messages.");
        assertThat(detail.getList("annotations.tags")).containsExactly("DEAD_AIR", "USER_FRUSTRATED");
        assertThat(detail.getMap("usage_info.llm.'QAAnalysis|||qa-judge-1'")).containsEntry("prompt_tokens", 300)
                .containsEntry("completion_tokens", 60).containsEntry("total_tokens", 360);

        // run.completed went out only once the review was stored, with it
        await("run.completed", Duration.ofSeconds(20), () -> !receiver.ofType("run.completed").isEmpty());
        JsonPath completed = JsonPath.from(receiver.ofType("run.completed").getFirst().body());
        assertThat(completed.getLong("data.workflow_run_id")).isEqualTo(run);
        assertThat(completed.getList("data.annotations.tags")).containsExactly("DEAD_AIR", "USER_FRUSTRATED");
        assertThat(completed.getInt("data.annotations.qa_review.node_results.start.score")).isEqualTo(7);
        // and the run was metered with the review's tokens
        await("metered", Duration.ofSeconds(20), () -> sql.queryString(
                "SELECT prompt_tokens::text FROM usage_records WHERE workflow_run_id = ?", run) != null);
        assertThat(Long.parseLong(sql.queryString(
                "SELECT prompt_tokens::text FROM usage_records WHERE workflow_run_id = ?", run))).isGreaterThanOrEqualTo(300);
    }

    @Test
    @SuppressWarnings("unchecked")
    void anOverloadedModelIsAskedAgainAndARefusalIsStoredWithoutHoldingTheRunsCompletion() throws Exception {
        long workflow = workflow(Map.of());
        // the first part: 503 until the adapter's own retries are spent, then once more asked by the review
        for (int i = 0; i < 3; i++) {
            model.failures.add(503);
        }
        long run = chat(workflow);
        JsonPath detail = reviewed(workflow, run);
        Map<String, Object> results = (Map<String, Object>) detail.getMap("annotations.qa_review").get("node_results");
        assertThat((Map<String, Object>) results.get("start")).containsEntry("score", 7);
        assertThat(model.asked.size()).isGreaterThan(3);
        // the default reviewer prompt is the reference's, with the figures in it
        assertThat(model.asked.getLast().system()).startsWith("You are a QA analyst evaluating a specific segment")
                .contains("\"avg_latency_seconds\": null");

        model.asked.clear();
        model.failures.add(401); // a refused key is not asked again
        long refused = chat(workflow);
        JsonPath after = reviewed(workflow, refused);
        Map<String, Object> failed = (Map<String, Object>) ((Map<String, Object>) after
                .getMap("annotations.qa_review").get("node_results")).get("start");
        assertThat(String.valueOf(failed.get("error"))).contains("401").contains("Incorrect API key provided");
        assertThat(failed).containsEntry("score", null);
        assertThat(model.asked).hasSize(3); // the refused part once, then the booking part's summary and review
    }

    @Test
    void aCallTheNodeLeavesOutIsStoredAsSkippedAndNoModelIsAsked() throws Exception {
        long shortCalls = workflow(Map.of("qa_min_call_duration", 3600));
        long run = chat(shortCalls);
        JsonPath detail = reviewed(shortCalls, run);
        assertThat(detail.getBoolean("annotations.qa_review.skipped")).isTrue();
        assertThat(detail.getString("annotations.qa_review.reason")).matches(
                "call duration \\(\\d+\\.\\ds\\) below minimum \\(3600s\\)");

        long disabled = workflow(Map.of("qa_enabled", false));
        long quiet = chat(disabled);
        Thread.sleep(1500);
        assertThat(sql.queryString("SELECT count(*)::text FROM webhook_deliveries WHERE workflow_run_id = ?", quiet))
                .isEqualTo("0");
        assertThat(model.asked).isEmpty();
    }
}
