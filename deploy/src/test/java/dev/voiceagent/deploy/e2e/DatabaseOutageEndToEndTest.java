package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.StoppablePostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The database goes away under the running service (its own embedded server, stopped here): the
 * autoscale metric answers 503, never 0, which would scale the fleet down during the outage, and ordinary requests
 * answer 503 with Retry-After rather than a 500.
 */
@QuarkusTest
@WithTestResource(StoppablePostgresResource.class)
class DatabaseOutageEndToEndTest {

    @Test
    void theAutoscaleMetricAndOrdinaryRequestsAre503WithRetryAfterWhileTheDatabaseIsOut() {
        given().header("X-Devops-Secret", "test-devops-secret").get("/api/v1/health/autoscale-metric?buffer=5")
                .then().statusCode(200);
        String key = Api.createKey(Api.signUp("outage"),
                "k");
        given().header("X-API-Key", key).get("/api/v1/campaign/").then().statusCode(200);
        StoppablePostgresResource.stopDatabase();
        given().header("X-Devops-Secret", "test-devops-secret").get("/api/v1/health/autoscale-metric?buffer=5")
                .then().statusCode(503).body("detail", equalTo("Fleet call count unavailable"));
        given().get("/api/v1/health").then().statusCode(200); // reachable: says nothing more
        // an ordinary request, a write among them: not a 500 with a correlation id, a 503 saying to come back
        for (int i = 0; i < 5; i++) {
            given().header("X-API-Key", key).get("/api/v1/campaign/").then().statusCode(503)
                    .header("Retry-After", "5")
                    .body("detail", org.hamcrest.Matchers.containsString("cannot reach its database"));
        }
        given().header("X-API-Key", key).contentType("application/json").body(Map.of("name", "x",
                "workflow_definition", Map.of("nodes", List.of(), "edges", List.of())))
                .post("/api/v1/workflow/create/definition").then().statusCode(503).header("Retry-After", "5");
    }
}
