package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceagent.adapters.telephony.FormBody;
import dev.voiceagent.adapters.telephony.twilio.TwilioSignature;
import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.FakeProviderServer;
import dev.voiceagent.deploy.support.StoppablePostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The database shutting down under the running service (a restart's first half): its sessions are terminated (57P01)
 * and every new connection is refused with 57P03 "the database system is shutting down". A carrier's status callback,
 * a read and the autoscale metric answer 503 with Retry-After and the spec's {"detail"}, not 500, so the carrier
 * tries its callback again later.
 */
@QuarkusTest
@WithTestResource(StoppablePostgresResource.class)
@WithTestResource(FakeProviderServer.class)
class DatabaseShutdownEndToEndTest {

    private static final String SID = "AC" + "0123456789abcdef".repeat(2);
    private static final String TOKEN = "twilio-auth-token-1";

    @AfterEach
    void letTheServerGo() {
        StoppablePostgresResource.finishShutdown();
    }

    @Test
    void aStatusCallbackAndAReadAre503WithRetryAfterWhileTheDatabaseShutsDown() {
        FakeProviderServer.status = 201;
        String key = Api.createKey(Api.signUp("shutdown"), "k");
        long workflow = Api.asKey(key).contentType(ContentType.JSON).body(Map.of("name", "Caller",
                "workflow_definition", WorkflowEndToEndTest.definition("Hi")))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        long config = Api.asKey(key).contentType(ContentType.JSON).body(Map.of("name", "Twilio", "config",
                Map.of("provider", "twilio", "account_sid", SID, "auth_token", TOKEN)))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200).extract().jsonPath()
                .getLong("id");
        Api.asKey(key).contentType(ContentType.JSON).body(Map.of("address", "+14155552671"))
                .post("/api/v1/organizations/telephony-configs/" + config + "/phone-numbers").then().statusCode(200);
        long runId = Api.asKey(key).contentType(ContentType.JSON).body(Map.of("workflow_id", workflow,
                "phone_number", "+442071838750")).post("/api/v1/telephony/initiate-call").then().statusCode(200)
                .extract().jsonPath().getLong("workflow_run_id");
        String path = "/api/v1/telephony/twilio/status-callback/" + runId;
        Map<String, String> completed = new LinkedHashMap<>(Map.of("CallSid", FakeProviderServer.lastSid,
                "CallStatus", "completed", "CallDuration", "12", "AccountSid", SID, "SequenceNumber", "3"));
        String body = completed.entrySet().stream().map(e -> e.getKey() + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
        String signature = TwilioSignature.compute(TOKEN, "http://localhost:8081" + path, FormBody.parse(body));
        Api.asKey(key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then().statusCode(200)
                .body("is_completed", equalTo(false));

        StoppablePostgresResource.beginShutdown();

        for (int i = 0; i < 3; i++) { // the carrier's callback: 503, so that it is sent again, never a 500
            given().contentType(ContentType.URLENC).header("X-Twilio-Signature", signature).body(body).post(path)
                    .then().statusCode(503).header("Retry-After", "5").contentType(ContentType.JSON)
                    .body("detail", containsString("cannot reach its database"));
        }
        Api.asKey(key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then().statusCode(503)
                .header("Retry-After", "5").body("detail", containsString("cannot reach its database"));
        Api.asKey(key).get("/api/v1/campaign/").then().statusCode(503).header("Retry-After", "5");
        given().header("X-Devops-Secret", "test-devops-secret").get("/api/v1/health/autoscale-metric?buffer=5")
                .then().statusCode(503).header("Retry-After", "5")
                .body("detail", equalTo("Fleet call count unavailable"));
    }
}
