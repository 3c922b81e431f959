package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.VoiceAgents;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The packaged application (quarkus-run.jar in its own JVM, prod profile) against a PostgreSQL it is
 * pointed at by configuration: migrations run, and the main paths work end to end. On JDK 25 this
 * is also the training run of the AOT cache (see deploy/pom.xml), so it walks the paths a replica
 * serves first: sign-up and keys, agents, telephony, campaigns, errors, health, metrics, OpenAPI.
 */
@QuarkusIntegrationTest
@WithTestResource(EmbeddedPostgresResource.class)
class PackagedApplicationIT {

    @Test
    void thePackagedJarServesTheApiAgainstTheConfiguredDatabase() {
        given().header("X-Request-Id", "packaged-1").get("/api/v1/health").then().statusCode(200)
                .body("status", equalTo("ok")).header("X-Request-Id", equalTo("packaged-1"));
        Api.Account account = Api.signUp("packaged");
        String key = Api.createKey(account, "it");
        Api.asKey(key).get("/api/v1/user/api-keys").then().statusCode(200).body("size()", equalTo(1));
        Api.asKey(key).get("/api/v1/campaign/").then().statusCode(200).body("campaigns", hasSize(0));
        Api.asKey(key).get("/api/v1/campaign/1").then().statusCode(404).body("detail", equalTo("Campaign not found"));
        given().get("/api/v1/campaign/").then().statusCode(401)
                .header("X-Request-Id", matchesPattern("[0-9a-f]{24}"));
    }

    @Test
    void agentsTelephonyAndErrorsWorkInThePackagedJar() {
        String key = Api.createKey(Api.signUp("packaged-flow"), "it");
        long workflow = Api.asKey(key).contentType(ContentType.JSON)
                .body(Map.of("name", "Reminder", "workflow_definition", WorkflowEndToEndTest.definition("Remind")))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        Api.asKey(key).get("/api/v1/workflow/fetch").then().statusCode(200);
        Api.asKey(key).get("/api/v1/workflow/fetch/" + workflow).then().statusCode(200)
                .body("name", equalTo("Reminder"));
        Api.asKey(key).get("/api/v1/node-types").then().statusCode(200);
        Api.asKey(key).contentType(ContentType.JSON).body(Map.of("name", "Laptop", "config", Map.of("provider", "simulator")))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200);
        Api.asKey(key).get("/api/v1/organizations/telephony-configs").then().statusCode(200);
        Api.asKey(key).contentType(ContentType.JSON).body("{\"name\": ").post("/api/v1/user/api-keys").then()
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body")));
        Api.asKey(key).contentType(ContentType.JSON).body(Map.of("name", "x", "workflow_id", workflow))
                .post("/api/v1/campaign/create").then().statusCode(422);
        given().get("/q/metrics").then().statusCode(200).body(containsString("http_server_requests"));
        given().get("/api/v1/openapi.json").then().statusCode(200).body("paths.size()", greaterThan(50));
    }

    /**
     * Phone calls that talk, stored as a tenant's are: the simulator's carrier connects each to the media route as
     * Twilio would (the run read from the database, its events, transcript and recording written back) and its callee
     * says two lines, the second over the agent's answer; the simulator's recognizer, model and voice answer. As the
     * AOT cache's training run, this puts the database-backed half of a call in the cache (the warm-up's rehearsed calls
     * store nothing), so a new replica's first calls start on trained profiles.
     */
    @Test
    void simulatedPhoneCallsTalkAndAreStoredInThePackagedJar() throws Exception {
        String key = Api.createKey(Api.signUp("packaged-voice"), "it");
        SimulatorVoiceCallEndToEndTest.simulatorModels(key);
        long workflow = Api.asKey(key).contentType(ContentType.JSON).body(Map.of("name", "Dental",
                "workflow_definition", SimulatorVoiceCallEndToEndTest.dentalAgent()))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        long config = Api.asKey(key).contentType(ContentType.JSON).body(Map.of("name", "Laptop", "config", Map.of(
                "provider", "simulator", "ring_delay_ms", 50, "rules", List.of(Map.of("suffix", "", "outcome",
                        "completed", "lines", List.of(FIRST, SECOND), "pause_ms", 400, "interrupt_line", 2,
                        "interrupt_after_ms", 900)))))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200).extract().jsonPath()
                .getLong("id");
        Api.asKey(key).contentType(ContentType.JSON).body(Map.of("address", "+15550142000", "inbound_workflow_id",
                workflow)).post("/api/v1/organizations/telephony-configs/" + config + "/phone-numbers").then()
                .statusCode(200);
        List<Long> runs = new ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
            runs.add(Api.asKey(key).contentType(ContentType.JSON).body(Map.of("workflow_id", workflow,
                    "phone_number", "+1555010" + (4_100 + i))).post("/api/v1/telephony/initiate-call").then()
                    .statusCode(200).extract().jsonPath().getLong("workflow_run_id"));
        }
        for (long run : runs) {
            JsonPath done = VoiceAgents.completedRun(key, workflow, run); // completed: its session's values written
            String transcript = new String(Api.download(done.getString("transcript_public_url")),
                    StandardCharsets.UTF_8);
            assertThat(transcript).as("run %d", run)
                    .startsWith("assistant: Hello, this is Acme Dental. How can I help?\nuser: " + FIRST + "\n")
                    .contains("user: " + SECOND + "\n").endsWith("assistant: Your cleaning is booked for Tuesday.\n");
            assertThat(done.getString("gathered_context.call_disposition")).isEqualTo("end_call_node");
        }
    }

    private static final int CALLS = 4;
    private static final String FIRST = "Hi, I have a question.";
    private static final String SECOND = "Please book a cleaning on Tuesday.";

    /**
     * The packaged replica (prod profile, its warm-up on) reports ready only once its warm-up ran every stage: voice
     * activity, the carriers' media, a recording, WebRTC and the rehearsed calls, each with its time (a stage that
     * failed would say why instead), every rehearsed call talked to its end. As the AOT cache's training run, this puts the rehearsed
     * calls' classes and profiles in the cache.
     */
    @Test
    void theReplicaIsReadyOnceItsWarmUpRanEveryStage() throws Exception {
        long deadline = System.nanoTime() + 90_000_000_000L;
        int status = given().get("/q/health/ready").statusCode();
        while (status != 200 && System.nanoTime() < deadline) {
            assertThat(status).as("not ready is a 503").isEqualTo(503);
            Thread.sleep(200);
            status = given().get("/q/health/ready").statusCode();
        }
        String ready = given().get("/q/health/ready").then().statusCode(200).extract().asString();
        Map<String, Object> warmUp = JsonPath.from(ready)
                .getMap("checks.find { it.name == 'warm-up' }.data");
        assertThat(warmUp).as(ready).isNotNull().containsEntry("done", true);
        assertThat(List.of("voice_activity_ms", "carrier_media_ms", "recording_ms", "webrtc_ms", "calls_ms",
                "total_ms"))
                .allSatisfy(stage -> assertThat(String.valueOf(warmUp.get(stage))).as(stage).matches("\\d+"));
        // 16 phone, 4 plain browser and 4 WebRTC calls: each caller's three lines heard and answered, the greeting too,
        // a barge-in on every call (the third line is said over the agent's long answer)
        assertThat(String.valueOf(warmUp.get("calls"))).startsWith("24 of 24 calls ended {user_hangup=24}; 96 answers,"
                + " 72 transcripts, ").matches(".*, (2[4-9]|[3-9][0-9]) barge-ins");
    }
}
