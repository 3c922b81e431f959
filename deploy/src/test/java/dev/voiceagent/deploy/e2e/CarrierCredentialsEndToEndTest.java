package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeAsterisk;
import dev.voiceagent.deploy.support.FakeProviderServer;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import io.restassured.specification.RequestSpecification;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A configuration's credentials are checked with its carrier when saved (each carrier's account read, at the local
 * stand-in of its API): taken, refused (a 400 naming the fields, nothing stored), or not checkable (the carrier down:
 * a 502, nothing stored); an update that changes no credential asks nothing.
 */
@QuarkusTest
@TestProfile(CarrierCredentialsEndToEndTest.Checked.class)
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeProviderServer.class)
class CarrierCredentialsEndToEndTest {

    public static class Checked implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("voiceagent.telephony.verify-credentials", "true");
        }
    }

    @Inject
    Vertx vertx;

    private static final String BASE = "/api/v1/organizations/telephony-configs";
    private String key;

    private RequestSpecification as() {
        return given().header("X-API-Key", key).contentType(ContentType.JSON);
    }

    @BeforeEach
    void setUp() {
        FakeProviderServer.REQUESTS.clear();
        FakeProviderServer.status = 201;
        key = Api.createKey(Api.signUp("carrier-credentials"), "k");
    }

    private int stored() {
        return as().get(BASE).then().statusCode(200).extract().jsonPath().getList("configurations").size();
    }

    @Test
    void twilioCredentialsAreAskedOfTwilioAndARefusalOrAnOutageStoresNothing() {
        Map<String, Object> twilio = Map.of("name", "Twilio", "config", Map.of("provider", "twilio", "account_sid",
                "AC" + "0123456789abcdef".repeat(2), "auth_token", "token-1"));
        FakeProviderServer.status = 401;
        as().body(twilio).post(BASE).then().statusCode(400)
                .body("detail", containsString("Twilio refused these credentials (HTTP 401): check account_sid"));
        FakeProviderServer.status = 503;
        as().body(twilio).post(BASE).then().statusCode(502)
                .body("detail", containsString("Twilio answered HTTP 503"));
        assertThat(stored()).as("nothing kept of a refused or unchecked configuration").isZero();
        assertThat(FakeProviderServer.REQUESTS).allSatisfy(r -> {
            assertThat(r.method()).isEqualTo("GET");
            assertThat(r.path()).isEqualTo("/2010-04-01/Accounts/AC" + "0123456789abcdef".repeat(2) + ".json");
            assertThat(new String(Base64.getDecoder().decode(r.authorization().substring(6))))
                    .isEqualTo("AC" + "0123456789abcdef".repeat(2) + ":token-1");
        });

        FakeProviderServer.status = 201;
        long id = as().body(twilio).post(BASE).then().statusCode(200).extract().jsonPath().getLong("id");
        FakeProviderServer.REQUESTS.clear();
        // renamed, its secret sent back masked: no credential changed, nothing asked
        String masked = as().get(BASE + "/" + id).then().statusCode(200).extract().jsonPath()
                .getString("credentials.auth_token");
        as().body(Map.of("name", "Main line", "config", Map.of("provider", "twilio", "account_sid",
                "AC" + "0123456789abcdef".repeat(2), "auth_token", masked))).put(BASE + "/" + id).then().statusCode(200);
        assertThat(FakeProviderServer.REQUESTS).isEmpty();
        // a new token is asked before it is kept
        FakeProviderServer.status = 401;
        as().body(Map.of("config", Map.of("provider", "twilio", "account_sid", "AC" + "0123456789abcdef".repeat(2),
                "auth_token", "token-2"))).put(BASE + "/" + id).then().statusCode(400);
        assertThat(FakeProviderServer.REQUESTS).singleElement().satisfies(r -> assertThat(
                new String(Base64.getDecoder().decode(r.authorization().substring(6)))).endsWith(":token-2"));
    }

    @Test
    void eachCarrierIsAskedInItsOwnWay() {
        FakeProviderServer.cloudonixDomain = "acme.cloudonix.net";
        FakeProviderServer.cloudonixKey = "XIright";
        as().body(Map.of("name", "Plivo", "config", Map.of("provider", "plivo", "auth_id", "MA1", "auth_token", "t")))
                .post(BASE).then().statusCode(200);
        as().body(Map.of("name", "Vobiz", "config", Map.of("provider", "vobiz", "auth_id", "MA2", "auth_token", "t")))
                .post(BASE).then().statusCode(200);
        as().body(Map.of("name", "Telnyx", "config", Map.of("provider", "telnyx", "api_key", "KEY1")))
                .post(BASE).then().statusCode(200);
        as().body(Map.of("name", "Cloudonix wrong", "config", Map.of("provider", "cloudonix", "bearer_token",
                "XIwrong", "domain_id", "acme.cloudonix.net"))).post(BASE).then().statusCode(400)
                .body("detail", equalTo("Cloudonix refused these credentials (HTTP 401): check bearer_token and domain_id"));
        as().body(Map.of("name", "Cloudonix", "config", Map.of("provider", "cloudonix", "bearer_token", "XIright",
                "domain_id", "acme.cloudonix.net"))).post(BASE).then().statusCode(200);
        assertThat(FakeProviderServer.REQUESTS).extracting(r -> r.method() + " " + r.path()).containsExactly(
                "GET /v1/Account/MA1/", "GET /api/v1/Account/MA2/", "GET /v2/balance",
                "GET /customers/self/domains/acme.cloudonix.net", "GET /customers/self/domains/acme.cloudonix.net");
        assertThat(FakeProviderServer.REQUESTS.get(1).xAuth()).isEqualTo("MA2:t");
        assertThat(FakeProviderServer.REQUESTS.get(2).authorization()).isEqualTo("Bearer KEY1");

        FakeProviderServer.REQUESTS.clear();
        as().body(Map.of("name", "Vonage", "config", Map.of("provider", "vonage", "api_key", "k", "api_secret", "s",
                "application_id", "app-1", "private_key", "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----",
                "signature_secret", "x"))).post(BASE).then().statusCode(400).body("detail", containsString("PKCS#8"));
        assertThat(FakeProviderServer.REQUESTS).as("a key Vonage could not be signed with is refused unasked").isEmpty();
        assertThat(stored()).isEqualTo(4);
    }

    @Test
    void anAsteriskUserIsAskedAtItsEndpointThroughTheAddressGuard() throws Exception {
        try (FakeAsterisk pbx = new FakeAsterisk(vertx, "agents", "right", "voiceagent")) {
            as().body(Map.of("name", "PBX wrong", "config", Map.of("provider", "ari", "ari_endpoint", pbx.endpoint(),
                    "app_name", "agents", "app_password", "wrong"))).post(BASE).then().statusCode(400)
                    .body("detail", equalTo("Asterisk refused these credentials (HTTP 401): check app_name and"
                            + " app_password (an ari.conf user)"));
            as().body(Map.of("name", "PBX private", "config", Map.of("provider", "ari", "ari_endpoint",
                    "http://10.20.30.40:8088", "app_name", "agents", "app_password", "right"))).post(BASE).then()
                    .statusCode(400).body("detail", containsString("ari_endpoint: Asterisk's ARI endpoint is not an"
                            + " allowed address"));
            assertThat(stored()).isZero();
            as().body(Map.of("name", "PBX", "config", Map.of("provider", "ari", "ari_endpoint", pbx.endpoint(),
                    "app_name", "agents", "app_password", "right"))).post(BASE).then().statusCode(200);
            assertThat(pbx.requests).extracting(r -> r.method() + " " + r.path()).containsExactly(
                    "GET /ari/asterisk/info");
        }
    }
}
