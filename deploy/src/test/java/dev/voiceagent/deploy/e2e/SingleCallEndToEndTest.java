package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import dev.voiceagent.adapters.telephony.CallbackSigner;
import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A single call on the simulator, end to end: initiate, signed reports, run outcome, limits. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class SingleCallEndToEndTest {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    CallbackSigner signer;

    private Api.Account account;
    private String key;
    private long workflow;

    private RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    @BeforeEach
    void workflowAndSimulator() {
        account = Api.signUp("calls");
        key = Api.createKey(account, "k");
        workflow = as(key).body(Map.of("name", "Caller", "workflow_definition", WorkflowEndToEndTest.definition("Hi")))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
    }

    private void simulator(int ringDelayMs) {
        as(key).body(Map.of("name", "Laptop", "config", Map.of("provider", "simulator", "ring_delay_ms", ringDelayMs,
                "rules", List.of(Map.of("suffix", "1", "outcome", "busy"),
                        Map.of("suffix", "2", "outcome", "completed", "duration_seconds", 7)))))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200);
    }

    private JsonPath call(String number) {
        return as(key).body(Map.of("workflow_id", workflow, "phone_number", number))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200)
                .body("message", startsWith("Call initiated successfully with run name WR-TEL-OUT-"))
                .extract().jsonPath();
    }

    private JsonPath awaitCompleted(long runId) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (Instant.now().isBefore(deadline)) {
            JsonPath run = as(key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then().statusCode(200)
                    .extract().jsonPath();
            if (run.getBoolean("is_completed")) {
                return run;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("run " + runId + " did not complete");
    }

    @Test
    void anIdempotencyKeyPlacesTheCallOnceAndReplaysItsAnswer() throws Exception {
        simulator(50);
        Map<String, Object> body = Map.of("workflow_id", workflow, "phone_number", "+15550000072");
        long first = as(key).header("Idempotency-Key", "call-once").body(body).post("/api/v1/telephony/initiate-call")
                .then().statusCode(200).extract().jsonPath().getLong("workflow_run_id");
        long second = as(key).header("Idempotency-Key", "call-once").body(body).post("/api/v1/telephony/initiate-call")
                .then().statusCode(200).extract().jsonPath().getLong("workflow_run_id");
        assertThat(second).isEqualTo(first);
        assertThat(new Sql(dataSource).queryLong("SELECT count(*) FROM calls WHERE organization_id = ?"
                + " AND to_number = '+15550000072'", account.organizationId())).isEqualTo(1);
        as(key).header("Idempotency-Key", "call-once").body(Map.of("workflow_id", workflow, "phone_number", "+15550000082"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(422);
    }

    @Test
    void aSimulatedCallReportsThroughTheSignedCallbackAndCompletesTheRun() throws Exception {
        simulator(50);
        long runId = call("+1 555 000 0012").getLong("workflow_run_id");
        JsonPath run = awaitCompleted(runId);
        assertThat(run.getString("mode")).isEqualTo("simulator");
        assertThat(run.getString("call_type")).isEqualTo("outbound");
        assertThat(run.getFloat("usage_info.call_duration_seconds")).isEqualTo(7f);
        // the reference's cost_info, which its dashboard reads for a run's duration, derived from the usage
        assertThat(run.getFloat("cost_info.call_duration_seconds")).isEqualTo(7f);
        assertThat(run.getInt("cost_info.dograh_token_usage")).isZero();
        assertThat(run.getString("initial_context.phone_number")).isEqualTo("+15550000012");
        assertThat(new Sql(dataSource).queryLong("SELECT count(*) FROM calls WHERE workflow_run_id = ? AND status ="
                + " 'completed' AND provider_call_id LIKE 'SIM-%'", runId)).isEqualTo(1);

        long busyRun = call("+15550000001").getLong("workflow_run_id");
        JsonPath busy = awaitCompleted(busyRun);
        assertThat(busy.getString("gathered_context.mapped_call_disposition")).isEqualTo("busy");
        assertThat(busy.getList("gathered_context.call_tags")).containsExactly("not_connected", "telephony_busy");
    }

    @Test
    void badSignaturesAre403AndChangeNothingWhileDuplicatesAndLateReportsAreAcknowledged() throws Exception {
        simulator(50);
        long runId = call("+15550000012").getLong("workflow_run_id");
        awaitCompleted(runId);
        String late = "{\"call_id\":null,\"status\":\"no-answer\",\"event_id\":\"manual-1\"}";
        String path = "/api/v1/telephony/simulator/events/" + runId;
        given().contentType(ContentType.JSON).body(late).post(path).then().statusCode(403);
        given().contentType(ContentType.JSON).header("X-Simulator-Signature", tampered(signer.sign(late)))
                .body(late).post(path).then().statusCode(403);
        given().contentType(ContentType.JSON).header("X-Simulator-Signature", signer.sign(late)).body(late).post(path)
                .then().statusCode(200).body("status", equalTo("ignored: already completed"));
        as(key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then()
                .body("usage_info.call_duration_seconds", equalTo(7));
        String ringing = "{\"status\":\"ringing\",\"event_id\":\"" + "x" + "\"}";
        given().contentType(ContentType.JSON).header("X-Simulator-Signature", signer.sign(ringing)).body(ringing)
                .post("/api/v1/telephony/simulator/events/999999").then().statusCode(404);
    }

    @Test
    void theOrganizationsLimitIsExactAndAFullLimitIs429() {
        simulator(5000);
        new Sql(dataSource).update("UPDATE organizations SET concurrent_call_limit = 2 WHERE id = ?",
                account.organizationId());
        call("+15550000012");
        call("+15550000013");
        as(key).body(Map.of("workflow_id", workflow, "phone_number", "+15550000014"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(429)
                .body("detail", equalTo("Concurrent call limit reached"));
        assertThat(new Sql(dataSource).queryLong("SELECT count(*) FROM workflow_runs WHERE workflow_id = ?", workflow))
                .isEqualTo(2);
    }

    @Test
    void theOrganizationsTestNumberIsUsedWhenNoneIsGivenAndARunCanBeReusedOnce() throws Exception {
        simulator(50);
        as(key).get("/api/v1/organizations/preferences").then().statusCode(200)
                .body("test_phone_number", org.hamcrest.Matchers.nullValue())
                .body("external_pbx_integrations_enabled", equalTo(false));
        as(key).body(Map.of("timezone", "Mars/Base")).put("/api/v1/organizations/preferences").then().statusCode(400)
                .body("detail", equalTo("Invalid timezone: Mars/Base"));
        as(key).body(Map.of("test_phone_number", "+1 555 000 0012", "timezone", "Europe/Berlin"))
                .put("/api/v1/organizations/preferences").then().statusCode(200)
                .body("timezone", equalTo("Europe/Berlin"));
        long runId = as(key).body(Map.of("workflow_id", workflow)).post("/api/v1/telephony/initiate-call").then()
                .statusCode(200).extract().jsonPath().getLong("workflow_run_id");
        assertThat(awaitCompleted(runId).getString("initial_context.phone_number")).isEqualTo("+15550000012");

        long testRun = as(key).body(Map.of("mode", "webrtc", "name", "editor test")).post("/api/v1/workflow/" + workflow
                + "/runs").then().statusCode(200).extract().jsonPath().getLong("id");
        as(key).body(Map.of("workflow_id", workflow, "workflow_run_id", testRun)).post("/api/v1/telephony/initiate-call")
                .then().statusCode(200).body("workflow_run_id", equalTo((int) testRun))
                .body("workflow_run_name", equalTo("editor test"));
        as(key).body(Map.of("workflow_id", workflow, "workflow_run_id", testRun)).post("/api/v1/telephony/initiate-call")
                .then().statusCode(409).body("detail", equalTo("The run already has a call"));
        long otherWorkflow = as(key).body(Map.of("name", "Other", "workflow_definition",
                WorkflowEndToEndTest.definition("Hi"))).post("/api/v1/workflow/create/definition").then().statusCode(200)
                .extract().jsonPath().getLong("id");
        as(key).body(Map.of("workflow_id", otherWorkflow, "workflow_run_id", testRun))
                .post("/api/v1/telephony/initiate-call").then().statusCode(400)
                .body("detail", startsWith("workflow_run_workflow_mismatch"));
    }

    @Test
    void callsNeedAWorkflowAReadyConfigurationAndANumber() {
        as(key).body(Map.of("workflow_id", workflow, "phone_number", "+15550000012"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(400)
                .body("detail", equalTo("No telephony configuration: configure telephony first"));
        simulator(50);
        as(key).body(Map.of("workflow_id", workflow)).post("/api/v1/telephony/initiate-call").then().statusCode(400)
                .body("detail", startsWith("phone_number is required"));
        as(key).body(Map.of("workflow_id", 999999, "phone_number", "+15550000012"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(404);
        as(key).body(Map.of("workflow_id", workflow, "phone_number", "12")).post("/api/v1/telephony/initiate-call")
                .then().statusCode(400).body("detail", containsString("no country code"));
        String otherKey = Api.createKey(Api.signUp("calls-other"), "k");
        as(otherKey).body(Map.of("workflow_id", workflow, "phone_number", "+15550000012"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(404);
        as(key).body(Map.of("phone_number", "+15550000012")).post("/api/v1/telephony/initiate-call").then()
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body", "workflow_id")));
    }

    /** The signature with its first hex digit changed: always different (a fixed prefix equals it 1 time in 256). */
    private static String tampered(String signature) {
        char first = signature.charAt(0);
        return (first == '0' ? '1' : '0') + signature.substring(1);
    }
}
