package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Voice regression tests: a text chat saved as a scenario is replayed as a voice call (the simulated caller says its
 * messages in FreeTTS's voice over the media route in Twilio's protocol; the simulator's speech-to-text, language
 * model and text-to-speech: nothing leaves the machine), compared turn by turn with the voice figures; one workflow's
 * scenarios all at once as concurrent calls.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
public class ScenarioVoiceReplayEndToEndTest {

    private String key;
    private long workflow;

    private static RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    @BeforeEach
    void agent() {
        key = Api.createKey(Api.signUp("voice-replay"), "k");
        as(key).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                "llm", Map.of("provider", "simulator"), "stt", Map.of("provider", "simulator"),
                "tts", Map.of("provider", "simulator"))))).put("/api/v1/organizations/model-configurations/v2")
                .then().statusCode(200);
        workflow = TextChatEndToEndTest.createWorkflow(key, TextChatEndToEndTest.bookingAgent(), null);
    }

    private String scenarios() {
        return "/api/v1/workflow/" + workflow + "/text-chat/scenarios";
    }

    /** A chat of these messages, saved as a scenario; its run. */
    private long scenario(String name, String... messages) {
        String sessions = "/api/v1/workflow/" + workflow + "/text-chat/sessions";
        long run = as(key).body(Map.of("initial_context", Map.of("first_name", "Ann", "company", "Acme Dental")))
                .post(sessions).then().statusCode(200).extract().jsonPath().getLong("workflow_run_id");
        for (String message : messages) {
            as(key).body(Map.of("text", message)).post(sessions + "/" + run + "/messages").then().statusCode(200);
        }
        as(key).body(Map.of("name", name)).put(scenarios() + "/" + run).then().statusCode(200);
        return run;
    }

    @Test
    void aScenarioReplayedAsAVoiceCallTakesTheSamePathAndAChangedEdgeFailsAtTheRightTurn() {
        long run = scenario("Books on Tuesday", "I want to book an appointment", "Preferred day is Tuesday");

        JsonPath passed = as(key).post(scenarios() + "/" + run + "/voice-replay").then().statusCode(200).extract()
                .jsonPath();
        assertThat(passed.getBoolean("passed")).as("%s", passed.prettify()).isTrue();
        assertThat(passed.getList("turns.matched")).containsExactly(true, true, true);
        assertThat(passed.getString("turns[0].answer")).isEqualTo("Hello Ann, this is Acme Dental.");
        assertThat(passed.getString("turns[1].actual.node_id")).isEqualTo("booking");
        assertThat(passed.getMap("turns[2].actual.extracted")).containsEntry("preferred_day", "Tuesday");
        // the figures of the call: an answer to each of the caller's two lines, each measured voice to voice
        assertThat(passed.getList("latencies_ms", Long.class)).hasSize(2).allSatisfy(ms -> assertThat(ms)
                .isBetween(1L, 5_000L));
        assertThat(passed.getLong("latency_p50_ms")).isPositive();
        assertThat(passed.getList("barge_ins_ms")).isEmpty();
        assertThat(passed.getDouble("call_seconds")).isGreaterThan(3.0);

        // the call is a run of the workflow, with the caller's words as heard, its recording and its log
        long call = passed.getLong("call_run_id");
        JsonPath callRun = as(key).get("/api/v1/workflow/" + workflow + "/runs/" + call).then().statusCode(200)
                .extract().jsonPath();
        assertThat(callRun.getString("mode")).isEqualTo("simulator");
        assertThat(callRun.getBoolean("is_completed")).isTrue();
        assertThat(callRun.getString("initial_context.first_name")).isEqualTo("Ann");
        String transcript = new String(Api.download(callRun.getString("transcript_public_url")),
                StandardCharsets.UTF_8);
        assertThat(transcript).startsWith("assistant: Hello Ann, this is Acme Dental.\n")
                .contains("user: I want to book an appointment\n", "user: Preferred day is Tuesday\n");
        assertThat(callRun.getString("recording_public_url")).isNotBlank();

        // the draft's first edge no longer books: the call stays at the start, and the replay says where
        Map<String, Object> changed = TextChatEndToEndTest.bookingAgent();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> edges = (List<Map<String, Object>>) changed.get("edges");
        edges.set(0, Map.of("id", "e1", "source", "start", "target", "booking", "data", Map.of("label", "Book",
                "condition", "The caller asks about prices")));
        as(key).body(Map.of("workflow_definition", changed)).put("/api/v1/workflow/" + workflow).then()
                .statusCode(200);
        JsonPath failed = as(key).post(scenarios() + "/" + run + "/voice-replay").then().statusCode(200).extract()
                .jsonPath();
        assertThat(failed.getBoolean("passed")).isFalse();
        assertThat(failed.getString("version")).isEqualTo("draft");
        assertThat(failed.getInt("first_divergence.turn")).isEqualTo(1);
        assertThat(failed.getString("first_divergence.field")).isEqualTo("node_id");
        assertThat(failed.getString("first_divergence.expected")).isEqualTo("booking");
        assertThat(failed.getString("first_divergence.actual")).isEqualTo("start");
        assertThat(failed.getBoolean("turns[0].matched")).isTrue();

        String other = Api.createKey(Api.signUp("voice-replay-other"), "k");
        as(other).post(scenarios() + "/" + run + "/voice-replay").then().statusCode(404);
        as(other).post(scenarios() + "/voice-replay").then().statusCode(404);
        as(key).post(scenarios() + "/" + run + "/voice-replay?version=latest").then().statusCode(422);
        as(key).post(scenarios() + "/999999/voice-replay").then().statusCode(404);
    }

    @Test
    void aWorkflowsScenariosAreReplayedAtOnceAsConcurrentCalls() {
        long tuesday = scenario("Books on Tuesday", "I want to book an appointment", "Preferred day is Tuesday");
        long monday = scenario("Books on Monday", "I want to book an appointment", "Preferred day is Monday");
        long started = System.currentTimeMillis();
        JsonPath all = as(key).post(scenarios() + "/voice-replay?version=published").then().statusCode(200)
                .extract().jsonPath();
        long took = System.currentTimeMillis() - started;
        assertThat(all.getList("run_id", Long.class)).containsExactly(tuesday, monday);
        assertThat(all.getList("passed")).containsOnly(true);
        assertThat(all.getList("call_run_id", Long.class)).doesNotHaveDuplicates().hasSize(2);
        assertThat(all.getMap("[1].turns[2].actual.extracted")).containsEntry("preferred_day", "Monday");
        // side by side: the two calls together took about as long as the longer one, not their sum
        double longest = Math.max(all.getDouble("[0].call_seconds"), all.getDouble("[1].call_seconds"));
        double sum = all.getDouble("[0].call_seconds") + all.getDouble("[1].call_seconds");
        assertThat(took / 1000.0).isLessThan(longest + (sum - longest) / 2 + 5);
    }
}
