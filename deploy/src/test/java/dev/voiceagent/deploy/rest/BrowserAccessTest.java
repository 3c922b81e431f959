package dev.voiceagent.deploy.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A dashboard on another origin (the test profile allows http://localhost:3010 and https://*.example.com):
 * standard preflights, CORS headers on every answer (successes and errors alike, so a write that
 * succeeded is never reported as failed), nothing for other origins, and the health endpoint reports
 * where the service really listens.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class BrowserAccessTest {

    private static final String DASHBOARD = "http://localhost:3010";

    @Test
    void anAllowedOriginGetsThePreflightAndTheHeadersOnSuccessesAndErrors() {
        given().header("Origin", DASHBOARD).header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "content-type, authorization")
                .options("/api/v1/auth/signup").then().statusCode(204)
                .header("Access-Control-Allow-Origin", DASHBOARD)
                .header("Access-Control-Allow-Methods", containsString("POST"))
                .header("Access-Control-Allow-Headers", containsString("authorization"))
                .header("Vary", containsString("Origin"));
        Map<String, String> body = Map.of("email", "cors-" + UUID.randomUUID() + "@example.com",
                "password", "correct-horse-battery");
        given().header("Origin", DASHBOARD).contentType(ContentType.JSON).body(body).post("/api/v1/auth/signup")
                .then().statusCode(200).header("Access-Control-Allow-Origin", DASHBOARD)
                .header("Access-Control-Expose-Headers", containsString("X-Request-Id"));
        given().header("Origin", DASHBOARD).contentType(ContentType.JSON).body(body).post("/api/v1/auth/signup")
                .then().statusCode(409).header("Access-Control-Allow-Origin", DASHBOARD);
        given().header("Origin", DASHBOARD).contentType(ContentType.JSON).body("{\"email\": ")
                .post("/api/v1/auth/signup").then().statusCode(422).header("Access-Control-Allow-Origin", DASHBOARD);
        given().header("Origin", DASHBOARD).get("/api/v1/campaign/").then().statusCode(401)
                .header("Access-Control-Allow-Origin", DASHBOARD);
        given().header("Origin", "https://app.example.com").get("/api/v1/health").then().statusCode(200)
                .header("Access-Control-Allow-Origin", "https://app.example.com");
    }

    @Test
    void anotherOriginGetsNoCorsHeadersAndItsPreflightIsRefused() {
        given().header("Origin", "https://evil.test").header("Access-Control-Request-Method", "POST")
                .options("/api/v1/auth/signup").then().statusCode(403)
                .header("Access-Control-Allow-Origin", nullValue());
        given().header("Origin", "https://evil.test").get("/api/v1/health").then().statusCode(200)
                .header("Access-Control-Allow-Origin", nullValue());
        given().header("Origin", "https://example.com.evil.test").get("/api/v1/health").then()
                .header("Access-Control-Allow-Origin", nullValue());
        // the public embed paths answer by their own rule (the page's origin reflected, so an error is readable;
        // the data is gated by the embed token's domains), never by the dashboard's policy
        given().header("Origin", DASHBOARD).get("/api/v1/public/embed/config/some-token").then().statusCode(404)
                .header("Access-Control-Allow-Origin", DASHBOARD)
                .header("Access-Control-Expose-Headers", nullValue());
    }

    @Test
    void theHealthEndpointReportsThePortTheServiceReallyListensOn() {
        given().get("/api/v1/health").then().statusCode(200)
                .body("backend_api_endpoint", equalTo("http://localhost:" + io.restassured.RestAssured.port));
    }
}
