package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceagent.deploy.support.StoppablePostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/**
 * The database goes away under the running service (its own embedded server, stopped here): the
 * autoscale metric answers 503, never 0, which would scale the fleet down during the outage.
 */
@QuarkusTest
@WithTestResource(StoppablePostgresResource.class)
class DatabaseOutageEndToEndTest {

    @Test
    void theAutoscaleMetricIs503WhenTheLedgerCannotBeRead() {
        given().header("X-Devops-Secret", "test-devops-secret").get("/api/v1/health/autoscale-metric?buffer=5")
                .then().statusCode(200);
        StoppablePostgresResource.stopDatabase();
        given().header("X-Devops-Secret", "test-devops-secret").get("/api/v1/health/autoscale-metric?buffer=5")
                .then().statusCode(503).body("detail", equalTo("Fleet call count unavailable"));
        given().get("/api/v1/health").then().statusCode(200); // reachable: says nothing more
    }
}
