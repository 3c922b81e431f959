package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** An installation without a payment provider (the self-hosted default): no subscription, every payment a clear 400. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class BillingEndToEndTest {

    private static final String NOT_CONFIGURED = "Billing is not configured on this installation";
    private String key;

    @BeforeEach
    void organization() {
        key = Api.createKey(Api.signUp("billing"), "k");
    }

    private RequestSpecification as() {
        return given().header("X-API-Key", key).contentType(ContentType.JSON);
    }

    @Test
    void withoutAPaymentProviderThereIsNoSubscriptionAndNoPayment() {
        as().get("/api/v1/organizations/billing/subscription").then().statusCode(200)
                .body("enabled", equalTo(false)).body("status", equalTo("not_configured")).body("plan", nullValue())
                .body("credits_enforced", equalTo(false));
        as().body(Map.of("plan", "pro", "success_url", "https://app.example.com/ok"))
                .post("/api/v1/organizations/billing/subscription/checkout").then().statusCode(400)
                .body("detail", equalTo(NOT_CONFIGURED));
        as().post("/api/v1/organizations/billing/subscription/portal").then().statusCode(400)
                .body("detail", equalTo(NOT_CONFIGURED));
        as().body(Map.of("credits", 5000)).post("/api/v1/organizations/usage/mps-credits/purchase-url").then()
                .statusCode(400).body("detail", equalTo(NOT_CONFIGURED));
        as().body(Map.of("credits", 0)).post("/api/v1/organizations/usage/mps-credits/purchase-url").then()
                .statusCode(422);
        given().get("/api/v1/organizations/billing/subscription").then().statusCode(401);
    }
}
