package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The operations endpoints: the shared secret, this replica's live calls and the fleet metric. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class HealthOperationsEndToEndTest {

    private static final String SECRET = "test-devops-secret";

    @Inject
    AgroalDataSource dataSource;

    private long value(String buffer) {
        return given().header("X-Devops-Secret", SECRET).get("/api/v1/health/autoscale-metric?buffer=" + buffer)
                .then().statusCode(200).extract().jsonPath().getLong("value");
    }

    @Test
    void theSecretIsRequiredAndComparedExactly() {
        for (String path : List.of("/api/v1/health/active-calls", "/api/v1/health/autoscale-metric")) {
            given().get(path).then().statusCode(403).body("detail", equalTo("Forbidden"));
            given().header("X-Devops-Secret", SECRET + "x").get(path).then().statusCode(403);
            given().header("X-Devops-Secret", SECRET).get(path).then().statusCode(200);
            given().header("X-Dograh-Devops-Secret", SECRET).get(path).then().statusCode(200);
        }
        given().get("/api/v1/health").then().statusCode(200).body("status", equalTo("ok"));
    }

    @Test
    void theMetricIsTheFleetsLiveCallsAndVoiceSessionsPlusTheBufferAndABadBufferIs422() throws Exception {
        Sql sql = new Sql(dataSource);
        // a voice session (a run whose media a replica holds and beats for) with no call in the ledger, as a browser
        // call will be, and one whose replica stopped beating: the first counts, the second does not
        Api.Account account = Api.signUp("ops-sessions");
        String key = Api.createKey(account, "k");
        long workflow = given().header("X-API-Key", key).contentType(ContentType.JSON)
                .body(Map.of("name", "Talker", "workflow_definition", WorkflowEndToEndTest.definition("Hi")))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        long definition = sql.queryLong("SELECT id FROM workflow_definitions WHERE workflow_id = ?", workflow);
        String session = "INSERT INTO workflow_runs (organization_id, workflow_id, definition_id, name, mode,"
                + " is_completed, state, media_owner, media_heartbeat_at) VALUES (?, ?, ?, 's', 'webrtc', false,"
                + " 'running', 'a-replica', now() - ?::interval)";
        long talking = sql.insertReturningId(session, account.organizationId(), workflow, definition, "1 second");
        sql.insertReturningId(session, account.organizationId(), workflow, definition, "2 minutes");
        String live = "SELECT count(*) FROM (SELECT workflow_run_id FROM calls WHERE status IN ('initiated', 'ringing',"
                + " 'in-progress') AND started_at > now() - interval '2 hours' UNION SELECT id FROM workflow_runs"
                + " WHERE media_owner IS NOT NULL AND media_heartbeat_at > now() - interval '30 seconds') live";
        long fleet = -1;
        for (int i = 0; i < 20 && fleet < 0; i++) { // other tests' calls may still be ending: read a stable moment
            long before = sql.queryLong(live);
            long measured = value("0");
            if (before == measured && sql.queryLong(live) == before) {
                fleet = before;
            } else {
                Thread.sleep(200);
            }
        }
        assertThat(fleet).as("a stable reading, the live voice session in it").isGreaterThanOrEqualTo(1);
        sql.update("UPDATE workflow_runs SET is_completed = true, media_owner = NULL WHERE id = ?", talking);
        long afterSession = -1;
        for (int i = 0; i < 20 && afterSession < 0; i++) {
            long before = sql.queryLong(live);
            long measured = value("0");
            if (before == measured && sql.queryLong(live) == before) {
                afterSession = before;
            } else {
                Thread.sleep(200);
            }
        }
        assertThat(afterSession).as("the ended session no longer counts").isGreaterThanOrEqualTo(0);
        fleet = afterSession;
        assertThat(value("20")).isEqualTo(fleet + 20);
        assertThat(value("-3")).isEqualTo(fleet);
        given().header("X-Devops-Secret", SECRET).get("/api/v1/health/autoscale-metric?buffer=lots").then()
                .statusCode(422).body("detail[0].loc", equalTo(List.of("query", "buffer")));
        given().header("X-Devops-Secret", SECRET).get("/api/v1/health/autoscale-metric?buffer=1.5").then()
                .statusCode(422);
    }

    @Test
    void activeCallsCountsTheCallsThisReplicaPlacedAndTheLoopLag() throws Exception {
        String key = Api.createKey(Api.signUp("ops"), "k");
        long workflow = given().header("X-API-Key", key).contentType(ContentType.JSON)
                .body(Map.of("name", "Caller", "workflow_definition", WorkflowEndToEndTest.definition("Hi")))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        given().header("X-API-Key", key).contentType(ContentType.JSON)
                .body(Map.of("name", "Slow", "config", Map.of("provider", "simulator", "ring_delay_ms", 3000)))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200);
        given().header("X-API-Key", key).contentType(ContentType.JSON)
                .body(Map.of("workflow_id", workflow, "phone_number", "+15550700005"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200);
        given().header("X-Devops-Secret", SECRET).get("/api/v1/health/active-calls").then().statusCode(200)
                .body("active_calls", greaterThanOrEqualTo(1))
                .body("loop_lag_p95_ms", greaterThanOrEqualTo(0.0f)).body("loop_lag_max_ms", greaterThanOrEqualTo(0.0f));
        assertThat(new Sql(dataSource).queryLong("SELECT count(*) FROM calls WHERE to_number = '+15550700005'"
                + " AND placed_by IS NOT NULL")).isEqualTo(1);
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (Instant.now().isBefore(deadline) && new Sql(dataSource).queryLong("SELECT count(*) FROM calls"
                + " WHERE to_number = '+15550700005' AND status = 'completed'") == 0) {
            Thread.sleep(200);
        }
    }
}
