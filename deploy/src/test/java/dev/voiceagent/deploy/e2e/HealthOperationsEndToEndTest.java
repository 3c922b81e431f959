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
    void theMetricIsTheLedgersLiveCallsPlusTheBufferAndABadBufferIs422() throws Exception {
        Sql sql = new Sql(dataSource);
        String live = "SELECT count(*) FROM calls WHERE status IN ('initiated', 'ringing', 'in-progress')"
                + " AND started_at > now() - interval '2 hours'";
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
        assertThat(fleet).as("a stable reading").isGreaterThanOrEqualTo(0);
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
