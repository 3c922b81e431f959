package dev.voiceagent.deploy.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An installation behind a proxy says where clients reach it; the health endpoint reports that. */
@QuarkusTest
@TestProfile(PublicBaseUrlTest.BehindAProxy.class)
@WithTestResource(EmbeddedPostgresResource.class)
class PublicBaseUrlTest {

    public static class BehindAProxy implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("voiceagent.public-base-url", "https://voice.example.com/");
        }
    }

    @Test
    void theConfiguredPublicBaseUrlIsTheBackendApiEndpoint() {
        given().get("/api/v1/health").then().statusCode(200)
                .body("backend_api_endpoint", equalTo("https://voice.example.com"));
    }
}
