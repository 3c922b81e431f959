package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import org.junit.jupiter.api.Test;

/**
 * The packaged application (quarkus-run.jar in its own JVM) against a PostgreSQL it is pointed at
 * by configuration: migrations run, sign-up, keys and the campaign list work end to end.
 */
@QuarkusIntegrationTest
@WithTestResource(EmbeddedPostgresResource.class)
class PackagedApplicationIT {

    @Test
    void thePackagedJarServesTheApiAgainstTheConfiguredDatabase() {
        given().get("/api/v1/health").then().statusCode(200).body("status", equalTo("ok"));
        Api.Account account = Api.signUp("packaged");
        String key = Api.createKey(account, "it");
        Api.asKey(key).get("/api/v1/campaign/").then().statusCode(200).body("campaigns", hasSize(0));
        Api.asKey(key).get("/api/v1/campaign/1").then().statusCode(404).body("detail", equalTo("Campaign not found"));
        given().get("/api/v1/campaign/").then().statusCode(401);
    }
}
