package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceagent.adapters.telephony.FormBody;
import dev.voiceagent.adapters.telephony.twilio.TwilioSignature;
import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeProviderServer;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Twilio gateway against a local server that checks what it sends, and Twilio's signed callbacks. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeProviderServer.class)
class TwilioEndToEndTest {

    private static final String SID = "AC" + "0123456789abcdef".repeat(2);
    private static final String TOKEN = "twilio-auth-token-1";

    private String key;
    private long workflow;

    private RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    @BeforeEach
    void twilioConfiguration() {
        FakeProviderServer.REQUESTS.clear();
        FakeProviderServer.status = 201;
        key = Api.createKey(Api.signUp("twilio"), "k");
        workflow = as(key).body(Map.of("name", "Caller", "workflow_definition", WorkflowEndToEndTest.definition("Hi")))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        long config = as(key).body(Map.of("name", "Twilio", "config", Map.of("provider", "twilio", "account_sid", SID,
                "auth_token", TOKEN))).post("/api/v1/organizations/telephony-configs").then().statusCode(200)
                .extract().jsonPath().getLong("id");
        as(key).body(Map.of("address", "+14155552671")).post("/api/v1/organizations/telephony-configs/" + config
                + "/phone-numbers").then().statusCode(200);
    }

    private long initiate() {
        return as(key).body(Map.of("workflow_id", workflow, "phone_number", "+442071838750"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");
    }

    private static String form(Map<String, String> params) {
        StringBuilder out = new StringBuilder();
        params.forEach((k, v) -> out.append(out.length() == 0 ? "" : "&").append(k).append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return out.toString();
    }

    @Test
    void theGatewayCreatesTheCallWithBasicAuthAndStatusCallbacks() {
        long runId = initiate();
        assertThat(FakeProviderServer.REQUESTS).hasSize(1);
        FakeProviderServer.Received request = FakeProviderServer.REQUESTS.getFirst();
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.path()).isEqualTo("/2010-04-01/Accounts/" + SID + "/Calls.json");
        assertThat(request.authorization()).isEqualTo("Basic " + Base64.getEncoder()
                .encodeToString((SID + ":" + TOKEN).getBytes(StandardCharsets.UTF_8)));
        assertThat(request.contentType()).startsWith("application/x-www-form-urlencoded");
        Map<String, List<String>> form = FormBody.parse(request.body());
        assertThat(form.get("To")).containsExactly("+442071838750");
        assertThat(form.get("From")).containsExactly("+14155552671");
        assertThat(form.get("StatusCallback")).containsExactly(
                "http://localhost:8081/api/v1/telephony/twilio/status-callback/" + runId);
        assertThat(form.get("StatusCallbackMethod")).containsExactly("POST");
        assertThat(form.get("StatusCallbackEvent")).containsExactly("initiated", "ringing", "answered", "completed");
        // the media goes to this service's own signed media route, as an inbound call's does
        assertThat(FormBody.first(form, "Twiml")).matches("<Response><Connect><Stream url=\"ws://localhost:8081/api/v1/"
                + "telephony/ws/\\d+/\\d+/" + runId + "/[0-9a-f]{64}\"><Parameter name=\"workflow_run_id\" value=\""
                + runId + "\"/><Parameter name=\"resumable\" value=\"true\"/></Stream></Connect>"
                + "<Redirect method=\"POST\">http://localhost:8081/api/v1/telephony/twilio/resume/" + runId
                + "</Redirect></Response>");
    }

    @Test
    void signedCallbacksCompleteTheRunAndBadSignaturesChangeNothing() {
        long runId = initiate();
        String url = "http://localhost:8081/api/v1/telephony/twilio/status-callback/" + runId;
        String callSid = FakeProviderServer.lastSid;
        Map<String, String> completed = new LinkedHashMap<>(Map.of("CallSid", callSid, "CallStatus",
                "completed", "CallDuration", "12", "AccountSid", SID, "SequenceNumber", "3"));
        String body = form(completed);
        String signature = TwilioSignature.compute(TOKEN, url, FormBody.parse(body));

        given().contentType(ContentType.URLENC).body(body).post(url.substring(url.indexOf("/api"))).then().statusCode(403);
        given().contentType(ContentType.URLENC).header("X-Twilio-Signature", signature)
                .body(body.replace("CallDuration=12", "CallDuration=99")).post("/api/v1/telephony/twilio/status-callback/"
                        + runId).then().statusCode(403);
        as(key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then().body("is_completed", equalTo(false));

        given().contentType(ContentType.URLENC).header("X-Twilio-Signature", signature).body(body)
                .post("/api/v1/telephony/twilio/status-callback/" + runId).then().statusCode(200)
                .body("status", equalTo("applied: completed"));
        as(key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then().body("is_completed", equalTo(true))
                .body("usage_info.call_duration_seconds", equalTo(12));
        given().contentType(ContentType.URLENC).header("X-Twilio-Signature", signature).body(body)
                .post("/api/v1/telephony/twilio/status-callback/" + runId).then().statusCode(200)
                .body("status", equalTo("duplicate"));
    }

    @Test
    void aRefusalByTwilioFailsTheCallAndFreesItsSlot() {
        FakeProviderServer.status = 400;
        as(key).body(Map.of("workflow_id", workflow, "phone_number", "+442071838750"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(400)
                .body("detail", containsString("Twilio answered HTTP 400"));
        as(key).get("/api/v1/workflow/" + workflow + "/runs").then().statusCode(200)
                .body("runs[0].is_completed", equalTo(true))
                .body("runs[0].gathered_context.mapped_call_disposition", equalTo("error"));
    }
}
