package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.TestClock;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Text chat end to end on the simulator language model, with two organizations. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class TextChatEndToEndTest {

    private String key;
    private long workflow;

    static RequestSpecification as(String key) {
        return given().header("X-API-Key", key).contentType(ContentType.JSON);
    }

    /** Start (greets) -> Booking (extracts preferred_day) -> Goodbye. */
    static Map<String, Object> bookingAgent() {
        Map<String, Object> booking = new LinkedHashMap<>(Map.of("name", "Booking", "prompt",
                "Ask which day suits them. Offer morning or afternoon.", "extraction_enabled", true,
                "extraction_variables", List.of(Map.of("name", "preferred_day", "type", "string",
                        "prompt", "The day the caller prefers"))));
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("nodes", new ArrayList<>(List.of(
                WorkflowEndToEndTest.node("start", "startCall", Map.of("name", "Start", "prompt",
                        "You book dental appointments for {{company}}.", "greeting", "Hello {{first_name}}, this is {{company}}.")),
                WorkflowEndToEndTest.node("booking", "agentNode", booking),
                WorkflowEndToEndTest.node("goodbye", "endCall", Map.of("name", "Goodbye", "prompt",
                        "Thank them and say goodbye.")))));
        definition.put("edges", new ArrayList<>(List.of(
                Map.of("id", "e1", "source", "start", "target", "booking", "data", Map.of("label", "Book",
                        "condition", "The caller wants to book an appointment")),
                Map.of("id", "e2", "source", "booking", "target", "goodbye", "data", Map.of("label", "Confirmed",
                        "condition", "The caller confirmed the booking")))));
        return definition;
    }

    /** The simulator as the organization's language model (speech services are required by a pipeline). */
    static void useSimulator(String key) {
        as(key).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                "llm", Map.of("provider", "simulator"), "tts", Map.of("provider", "deepgram", "api_key", "dg-1"),
                "stt", Map.of("provider", "deepgram", "api_key", "dg-1"))))).put("/api/v1/organizations/model-configurations/v2")
                .then().statusCode(200);
    }

    static long createWorkflow(String key, Map<String, Object> definition, Map<String, Object> configurations) {
        long id = as(key).body(Map.of("name", "Dental", "workflow_definition", definition))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        if (configurations != null) {
            as(key).body(Map.of("workflow_configurations", configurations)).put("/api/v1/workflow/" + id).then()
                    .statusCode(200);
        }
        return id;
    }

    private String sessions() {
        return "/api/v1/workflow/" + workflow + "/text-chat/sessions";
    }

    private JsonPath create() {
        return as(key).body(Map.of("initial_context", Map.of("first_name", "Ann", "company", "Acme Dental")))
                .post(sessions()).then().statusCode(200).extract().jsonPath();
    }

    @BeforeEach
    void agent() {
        key = Api.createKey(Api.signUp("chat"), "k");
        useSimulator(key);
        workflow = createWorkflow(key, bookingAgent(), null);
    }

    @AfterEach
    void time() {
        TestClock.reset();
    }

    @Test
    void aTemplatesCopyTalksWithItsExampleValuesAndAMissingValueIsNeverSaidAsBraces() {
        long copy = as(key).body(Map.of("template_id", 1, "workflow_name", "Dental reminders"))
                .post("/api/v1/workflow/templates/duplicate").then().statusCode(200).extract().jsonPath().getLong("id");
        assertThat(as(key).get("/api/v1/workflow/fetch/" + copy).then().statusCode(200).extract().jsonPath()
                .getMap("template_context_variables")).containsEntry("first_name", "Alex")
                .containsEntry("company_name", "Acme Dental");
        JsonPath chat = as(key).body(Map.of()).post("/api/v1/workflow/" + copy + "/text-chat/sessions").then()
                .statusCode(200).extract().jsonPath();
        assertThat(chat.getString("session_data.turns[0].assistant_message.text")).isEqualTo("Hi Alex, this is Acme"
                + " Dental calling about your appointment on Tuesday at 10 am.");
        JsonPath yes = as(key).body(Map.of("text", "Yes, sure.")).post("/api/v1/workflow/" + copy
                + "/text-chat/sessions/" + chat.getLong("workflow_run_id") + "/messages").then().statusCode(200)
                .extract().jsonPath();
        assertThat(yes.getString("checkpoint.current_node_id")).as("a plain yes follows 'ready to continue'")
                .isEqualTo("agent");

        JsonPath bare = as(key).body(Map.of("initial_context", Map.of())).post(sessions()).then().statusCode(200)
                .extract().jsonPath();
        assertThat(bare.getString("session_data.turns[0].assistant_message.text")).as("no value, no braces")
                .isEqualTo("Hello , this is .");
    }

    @Test
    void aChatGreetsMovesAlongTheEdgesExtractsAndEnds() {
        JsonPath created = create();
        long run = created.getLong("workflow_run_id");
        assertThat(created.getString("name")).matches("WR-TEXT-\\d{6}");
        assertThat(created.getString("mode")).isEqualTo("textchat");
        assertThat(created.getInt("revision")).isZero();
        assertThat(created.getString("session_data.turns[0].assistant_message.text"))
                .isEqualTo("Hello Ann, this is Acme Dental.");
        assertThat(created.getString("session_data.turns[0].user_message")).isNull();
        assertThat(created.getString("checkpoint.current_node_id")).isEqualTo("start");

        JsonPath booked = as(key).body(Map.of("text", "I want to book an appointment", "expected_revision", 0))
                .post(sessions() + "/" + run + "/messages").then().statusCode(200).extract().jsonPath();
        assertThat(booked.getInt("revision")).isEqualTo(1);
        assertThat(booked.getString("session_data.turns[1].user_message.text")).isEqualTo("I want to book an appointment");
        assertThat(booked.getString("session_data.turns[1].assistant_message.text")).isEqualTo("May I ask which day suits you?");
        assertThat(booked.getString("session_data.turns[1].node_id")).isEqualTo("booking");
        assertThat(booked.getList("session_data.turns[1].events.type")).contains("node_transition");
        assertThat(booked.getString("state")).isEqualTo("running");

        JsonPath day = as(key).body(Map.of("text", "Preferred day is Tuesday")).post(sessions() + "/" + run + "/messages")
                .then().statusCode(200).extract().jsonPath();
        assertThat(day.getString("gathered_context.preferred_day")).isEqualTo("Tuesday");
        assertThat(day.getMap("session_data.turns[2].usage")).containsKey("total_tokens");

        JsonPath ended = as(key).body(Map.of()).post(sessions() + "/" + run + "/end").then().statusCode(200).extract()
                .jsonPath();
        assertThat(ended.getBoolean("is_completed")).isTrue();
        assertThat(ended.getString("state")).isEqualTo("completed");
        assertThat(ended.getString("session_data.status")).isEqualTo("completed");
        assertThat(ended.getString("gathered_context.call_disposition")).isEqualTo("user_hangup");
        assertThat(ended.getInt("revision")).isEqualTo(3);
        as(key).body(Map.of("text", "hello?")).post(sessions() + "/" + run + "/messages").then().statusCode(400)
                .body("detail", equalTo("Text chat session has ended"));
        as(key).body(Map.of()).post(sessions() + "/" + run + "/end").then().statusCode(200).body("revision", equalTo(3));

        // the run shows the model's token usage and the duration, like any run
        JsonPath detail = as(key).get("/api/v1/workflow/" + workflow + "/runs/" + run).then().statusCode(200).extract()
                .jsonPath();
        assertThat(detail.getMap("usage_info.llm")).containsKey("simulator/simulator");
        assertThat(detail.getDouble("usage_info.call_duration_seconds")).isGreaterThanOrEqualTo(0);
        // the conversation as the run page reads it (the shape a voice call writes)
        List<Map<String, Object>> events = detail.getList("logs.realtime_feedback_events");
        assertThat(events).extracting(e -> e.get("type")).containsSubsequence("rtf-bot-text",
                "rtf-user-transcription", "rtf-node-transition", "rtf-bot-text", "rtf-user-transcription");
        assertThat(events).filteredOn(e -> "rtf-user-transcription".equals(e.get("type")))
                .extracting(e -> (Object) ((Map<?, ?>) e.get("payload")).get("text"))
                .containsExactly("I want to book an appointment", "Preferred day is Tuesday");
        assertThat(events.getFirst()).containsEntry("turn", 1).containsKey("timestamp")
                .containsEntry("payload", Map.of("text", "Hello Ann, this is Acme Dental."));
    }

    @Test
    void aSavedChatReplaysAsARegressionTestAndAChangedEdgeFailsAtTheRightTurn() {
        long run = create().getLong("workflow_run_id");
        as(key).body(Map.of("text", "I want to book an appointment")).post(sessions() + "/" + run + "/messages").then()
                .statusCode(200);
        as(key).body(Map.of("text", "Preferred day is Tuesday")).post(sessions() + "/" + run + "/messages").then()
                .statusCode(200);
        String scenarios = "/api/v1/workflow/" + workflow + "/text-chat/scenarios";

        JsonPath saved = as(key).body(Map.of("name", "Books on Tuesday")).put(scenarios + "/" + run).then()
                .statusCode(200).extract().jsonPath();
        assertThat(saved.getList("turns")).hasSize(3);
        assertThat(saved.getString("turns[0].user_text")).isNull();
        assertThat(saved.getString("turns[1].expected.node_id")).isEqualTo("booking");
        assertThat(saved.getList("turns[1].expected.transitions")).containsExactly("Book");
        assertThat(saved.getMap("turns[2].expected.extracted")).containsEntry("preferred_day", "Tuesday");
        assertThat(as(key).get(scenarios).then().statusCode(200).extract().jsonPath().getList("run_id")).hasSize(1);

        JsonPath passed = as(key).post(scenarios + "/" + run + "/replay").then().statusCode(200).extract().jsonPath();
        assertThat(passed.getBoolean("passed")).isTrue();
        assertThat(passed.getString("first_divergence")).isNull();
        assertThat(passed.getList("turns.matched")).containsOnly(true);
        assertThat(passed.getString("version")).isEqualTo("published");
        assertThat(passed.getString("turns[1].answer")).isEqualTo("May I ask which day suits you?");

        // the draft changes the first edge's condition: the message no longer books
        Map<String, Object> changed = bookingAgent();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> edges = (List<Map<String, Object>>) changed.get("edges");
        edges.set(0, Map.of("id", "e1", "source", "start", "target", "booking", "data", Map.of("label", "Book",
                "condition", "The caller asks about prices")));
        as(key).body(Map.of("workflow_definition", changed)).put("/api/v1/workflow/" + workflow).then().statusCode(200);
        JsonPath failed = as(key).post(scenarios + "/" + run + "/replay").then().statusCode(200).extract().jsonPath();
        assertThat(failed.getBoolean("passed")).isFalse();
        assertThat(failed.getString("version")).isEqualTo("draft");
        assertThat(failed.getInt("first_divergence.turn")).isEqualTo(1);
        assertThat(failed.getString("first_divergence.field")).isEqualTo("node_id");
        assertThat(failed.getString("first_divergence.expected")).isEqualTo("booking");
        assertThat(failed.getString("first_divergence.actual")).isEqualTo("start");
        assertThat(failed.getBoolean("turns[0].matched")).isTrue();
        // the published version still books
        as(key).post(scenarios + "/" + run + "/replay?version=published").then().statusCode(200)
                .body("passed", equalTo(true));

        // a corrected expectation: the replay must now extract Monday, and says where it did not
        as(key).body(Map.of("name", "Books on Monday", "expectations", List.of(Map.of("turn", 2, "extracted",
                Map.of("preferred_day", "Monday"))))).put(scenarios + "/" + run).then().statusCode(200)
                .body("name", equalTo("Books on Monday"));
        as(key).post(scenarios + "/" + run + "/replay?version=published").then().statusCode(200)
                .body("passed", equalTo(false)).body("first_divergence.turn", equalTo(2))
                .body("first_divergence.field", equalTo("extracted"));
        as(key).post(scenarios + "/" + run + "/replay?version=latest").then().statusCode(422);
        as(key).body(Map.of("name", "x", "expectations", List.of(Map.of("turn", 9)))).put(scenarios + "/" + run).then()
                .statusCode(400);

        String other = Api.createKey(Api.signUp("scenario-other"), "k");
        as(other).body(Map.of("name", "mine")).put(scenarios + "/" + run).then().statusCode(404);
        as(other).post(scenarios + "/" + run + "/replay").then().statusCode(404);
        as(other).delete(scenarios + "/" + run).then().statusCode(404);
        as(other).get(scenarios).then().statusCode(404);

        as(key).delete(scenarios + "/" + run).then().statusCode(200);
        as(key).delete(scenarios + "/" + run).then().statusCode(404);
        as(key).post(scenarios + "/" + run + "/replay").then().statusCode(404);
    }

    @Test
    void anEndedChatsTranscriptIsSharedByASignedLinkThatNeedsNoCredentials() {
        long run = create().getLong("workflow_run_id");
        as(key).body(Map.of("text", "I want to book an appointment")).post(sessions() + "/" + run + "/messages").then()
                .statusCode(200);
        as(key).body(Map.of()).post(sessions() + "/" + run + "/end").then().statusCode(200);
        JsonPath detail = as(key).get("/api/v1/workflow/" + workflow + "/runs/" + run).then().statusCode(200).extract()
                .jsonPath();
        assertThat(detail.getString("transcript_url")).endsWith("/" + run + ".txt");
        assertThat(detail.getString("recording_public_url")).isNull();
        String link = detail.getString("transcript_public_url");
        assertThat(link).contains("/api/v1/public/download/workflow/").endsWith("/transcript");
        String path = link.substring(link.indexOf("/api/v1/"));

        String signed = given().redirects().follow(false).get(path).then().statusCode(302).extract().header("Location");
        String transcript = given().urlEncodingEnabled(false).get(signed.substring(signed.indexOf("/api/v1/"))).then()
                .statusCode(200).extract().asString();
        assertThat(transcript).isEqualTo("assistant: Hello Ann, this is Acme Dental.\nuser: I want to book an appointment\n"
                + "assistant: May I ask which day suits you?\n");

        String token = path.split("/")[6];
        given().redirects().follow(false).get("/api/v1/public/download/workflow/" + token + "/recording").then()
                .statusCode(404);
        given().redirects().follow(false).get("/api/v1/public/download/workflow/" + token + "/video").then()
                .statusCode(400);
        given().redirects().follow(false).get("/api/v1/public/download/workflow/x" + token + "/transcript").then()
                .statusCode(404);
    }

    @Test
    void theEndCallNodeEndsTheChatByItself() {
        long run = create().getLong("workflow_run_id");
        as(key).body(Map.of("text", "book an appointment")).post(sessions() + "/" + run + "/messages").then().statusCode(200);
        JsonPath done = as(key).body(Map.of("text", "I confirmed the booking")).post(sessions() + "/" + run
                + "/messages").then().statusCode(200).extract().jsonPath();
        assertThat(done.getBoolean("is_completed")).isTrue();
        assertThat(done.getString("gathered_context.call_disposition")).isEqualTo("end_call_node");
        assertThat(done.getString("session_data.turns[2].assistant_message.text")).isEqualTo("Thank you for your time. Goodbye.");
    }

    @Test
    void aStaleRevisionIsA409AndARewindContinuesFromAnEarlierTurn() {
        long run = create().getLong("workflow_run_id");
        as(key).body(Map.of("text", "book an appointment")).post(sessions() + "/" + run + "/messages").then().statusCode(200);
        as(key).body(Map.of("text", "again", "expected_revision", 0)).post(sessions() + "/" + run + "/messages").then()
                .statusCode(409).body("detail.expected_revision", equalTo(0)).body("detail.actual_revision", equalTo(1))
                .body("detail.message", equalTo("Text chat session revision conflict"));

        JsonPath opened = as(key).get(sessions() + "/" + run).then().statusCode(200).extract().jsonPath();
        String first = opened.getString("session_data.turns[0].id");
        JsonPath rewound = as(key).body(Map.of("cursor_turn_id", first, "expected_revision", 1))
                .post(sessions() + "/" + run + "/rewind").then().statusCode(200).extract().jsonPath();
        assertThat(rewound.getString("session_data.status")).isEqualTo("rewound");
        assertThat(rewound.getString("checkpoint.current_node_id")).isEqualTo("start");
        as(key).body(Map.of("cursor_turn_id", "turn_nope")).post(sessions() + "/" + run + "/rewind").then().statusCode(400);

        // back at the start: a message that matches no edge stays there, and the booking turn is set aside
        JsonPath again = as(key).body(Map.of("text", "what are your opening hours?"))
                .post(sessions() + "/" + run + "/messages").then().statusCode(200).extract().jsonPath();
        assertThat(again.getList("session_data.turns")).hasSize(2);
        assertThat(again.getString("session_data.turns[1].node_id")).isEqualTo("start");
        assertThat(again.getString("session_data.cursor_turn_id")).isNull();
        assertThat(again.getList("session_data.discarded_future")).hasSize(1);
        assertThat(again.getString("session_data.discarded_future[0].rewound_from_turn_id")).isEqualTo(first);
        List<Map<String, Object>> events = as(key).get("/api/v1/workflow/" + workflow + "/runs/" + run).then()
                .statusCode(200).extract().jsonPath().getList("logs.realtime_feedback_events");
        assertThat(events).as("the rewound turn is not the conversation any more")
                .filteredOn(e -> "rtf-user-transcription".equals(e.get("type")))
                .extracting(e -> (Object) ((Map<?, ?>) e.get("payload")).get("text"))
                .containsExactly("what are your opening hours?");
    }

    @Test
    void concurrentMessagesOnOneRevisionLetExactlyOneThroughAndTurnsNeverInterleave() {
        long run = create().getLong("workflow_run_id");
        List<Integer> sameRevision = parallel(8, i -> as(key).body(Map.of("text", "message " + i, "expected_revision", 0))
                .post(sessions() + "/" + run + "/messages").statusCode());
        assertThat(sameRevision.stream().filter(s -> s == 200)).hasSize(1);
        assertThat(sameRevision.stream().filter(s -> s == 409)).hasSize(7);

        // without a revision each message goes on from whatever is current, or is refused while another is answered
        List<Integer> any = parallel(8, i -> as(key).body(Map.of("text", "more " + i))
                .post(sessions() + "/" + run + "/messages").statusCode());
        assertThat(any).containsAnyOf(200).allMatch(s -> s == 200 || s == 409);
        long ok = any.stream().filter(s -> s == 200).count();
        JsonPath after = as(key).get(sessions() + "/" + run).then().statusCode(200).extract().jsonPath();
        assertThat(after.getInt("revision")).isEqualTo(1 + (int) ok);
        List<Map<String, Object>> turns = after.getList("session_data.turns");
        assertThat(turns).hasSize(2 + (int) ok);
        assertThat(turns.subList(1, turns.size())).allSatisfy(t -> {
            assertThat(t.get("user_message")).isNotNull();
            assertThat(t.get("assistant_message")).isNotNull();
        });
        // each turn's checkpoint continues the one before: the conversation holds every turn's messages, in order
        List<Map<String, Object>> messages = after.getList("checkpoint.messages");
        assertThat(messages.stream().filter(m -> "user".equals(m.get("role")))).hasSize(1 + (int) ok);
    }

    private static List<Integer> parallel(int count, IntFunction<Integer> request) {
        List<CompletableFuture<Integer>> all = IntStream.range(0, count)
                .mapToObj(i -> CompletableFuture.supplyAsync(() -> request.apply(i))).toList();
        return all.stream().map(CompletableFuture::join).toList();
    }

    @Test
    void anotherOrganizationAWrongWorkflowAndARunOfAnotherModeAreRefused() {
        long run = create().getLong("workflow_run_id");
        String other = Api.createKey(Api.signUp("chat-other"), "k");
        as(other).get(sessions() + "/" + run).then().statusCode(404);
        as(other).body(Map.of("text", "hi")).post(sessions() + "/" + run + "/messages").then().statusCode(404);
        as(other).body(Map.of()).post(sessions() + "/" + run + "/end").then().statusCode(404);
        as(other).body(Map.of()).post(sessions() + "/" + run + "/rewind").then().statusCode(404);
        as(other).body(Map.of()).post(sessions()).then().statusCode(404);

        long second = createWorkflow(key, bookingAgent(), null);
        as(key).get("/api/v1/workflow/" + second + "/text-chat/sessions/" + run).then().statusCode(404);
        long voice = as(key).body(Map.of("mode", "webrtc", "name", "voice test")).post("/api/v1/workflow/" + workflow
                + "/runs").then().statusCode(200).extract().jsonPath().getLong("id");
        as(key).get(sessions() + "/" + voice).then().statusCode(400);
        as(key).body(Map.of("text", "")).post(sessions() + "/" + run + "/messages").then().statusCode(422);
        as(key).body(Map.of("text", "x".repeat(4001))).post(sessions() + "/" + run + "/messages").then().statusCode(422);
    }

    @Test
    void withoutALanguageModelTheChatSaysWhatToConfigureAndStoresNothing() {
        String bare = Api.createKey(Api.signUp("chat-bare"), "k");
        long id = createWorkflow(bare, bookingAgent(), null);
        as(bare).body(Map.of()).post("/api/v1/workflow/" + id + "/text-chat/sessions").then().statusCode(400)
                .body("detail", org.hamcrest.Matchers.containsString("No language model is configured"));
        // the opening turn here is a greeting; a start without one asks the model: same answer, nothing stored
        as(bare).get("/api/v1/workflow/" + id + "/runs").then().statusCode(200).body("total_count", equalTo(0));
    }

    @Test
    void aChatNobodyWritesInEndsAfterTheWorkflowsInactivityTimeout() throws InterruptedException {
        long idle = createWorkflow(key, bookingAgent(), Map.of("text_chat_inactivity_timeout_seconds", 60));
        long run = as(key).body(Map.of()).post("/api/v1/workflow/" + idle + "/text-chat/sessions").then().statusCode(200)
                .extract().jsonPath().getLong("workflow_run_id");
        long busy = create().getLong("workflow_run_id"); // the default 1800 s
        TestClock.advance(Duration.ofSeconds(90));
        JsonPath closed = null;
        for (int i = 0; i < 50; i++) {
            closed = as(key).get("/api/v1/workflow/" + idle + "/text-chat/sessions/" + run).then().statusCode(200)
                    .extract().jsonPath();
            if (closed.getBoolean("is_completed")) {
                break;
            }
            Thread.sleep(200);
        }
        assertThat(closed.getBoolean("is_completed")).isTrue();
        assertThat(closed.getString("gathered_context.call_disposition")).isEqualTo("user_idle_timeout");
        assertThat(as(key).get(sessions() + "/" + busy).then().statusCode(200).extract().jsonPath()
                .getBoolean("is_completed")).isFalse();
    }
}
