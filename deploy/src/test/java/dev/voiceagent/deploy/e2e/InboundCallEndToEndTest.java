package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** Inbound calls: the simulator ringing a number, and Twilio's signed voice webhook answered with TwiML. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class InboundCallEndToEndTest {

    private static final String SID = "AC" + "fedcba9876543210".repeat(2);
    private static final String TOKEN = "twilio-inbound-token";

    @Inject
    AgroalDataSource dataSource;

    private static RequestSpecification as(String key) {
        return given().header("X-API-Key", key).contentType(ContentType.JSON);
    }

    private record Setup(Api.Account account, String key, long workflow, long config, long number, String address) {
    }

    private Setup organization(Map<String, Object> config, String address, boolean answers) {
        Api.Account account = Api.signUp("inbound");
        String key = Api.createKey(account, "k");
        long workflow = as(key).body(Map.of("name", "Reception", "workflow_definition",
                WorkflowEndToEndTest.definition("Answer calls for {{company}}"))).post("/api/v1/workflow/create/definition")
                .then().statusCode(200).extract().jsonPath().getLong("id");
        long configId = as(key).body(Map.of("name", "Lines", "config", config)).post("/api/v1/organizations/telephony-configs")
                .then().statusCode(200).extract().jsonPath().getLong("id");
        Map<String, Object> number = answers ? Map.of("address", address, "inbound_workflow_id", workflow)
                : Map.of("address", address);
        long numberId = as(key).body(number).post("/api/v1/organizations/telephony-configs/" + configId + "/phone-numbers")
                .then().statusCode(200).extract().jsonPath().getLong("id");
        return new Setup(account, key, workflow, configId, numberId, address);
    }

    private static String unique() {
        return "+1555" + (1_000_000 + (long) (Math.random() * 8_999_999));
    }

    private JsonPath awaitCompleted(Setup s, long run) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (Instant.now().isBefore(deadline)) {
            JsonPath detail = as(s.key()).get("/api/v1/workflow/" + s.workflow() + "/runs/" + run).then().statusCode(200)
                    .extract().jsonPath();
            if (detail.getBoolean("is_completed")) {
                return detail;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("run " + run + " did not complete");
    }

    @Test
    void aSimulatedInboundCallCreatesAnInboundRunStreamedToTheRuntimeThatCompletes() throws Exception {
        Setup s = organization(Map.of("provider", "simulator", "ring_delay_ms", 50), unique(), true);
        JsonPath answer = as(s.key()).body(Map.of("to", s.address(), "from", "+15550001111"))
                .post("/api/v1/telephony/simulator/inbound-call").then().statusCode(200).extract().jsonPath();
        assertThat(answer.getString("action")).isEqualTo("stream");
        long run = answer.getLong("workflow_run_id");
        assertThat(answer.getString("stream_url")).matches("ws://localhost:8081/api/v1/telephony/ws/" + s.workflow() + "/"
                + s.account().organizationId() + "/" + run + "/[0-9a-f]{64}");

        JsonPath detail = awaitCompleted(s, run);
        assertThat(detail.getString("call_type")).isEqualTo("inbound");
        assertThat(detail.getString("mode")).isEqualTo("simulator");
        assertThat(detail.getString("name")).startsWith("WR-TEL-IN-");
        assertThat(detail.getString("initial_context.caller_number")).isEqualTo("+15550001111");
        assertThat(detail.getString("initial_context.called_number")).isEqualTo(s.address());
        assertThat(detail.getDouble("usage_info.call_duration_seconds")).isPositive();
    }

    @Test
    void aNumberWithoutAWorkflowAnotherOrganizationsNumberAndAFullOrganizationAreRefused() {
        Setup idle = organization(Map.of("provider", "simulator"), unique(), false);
        as(idle.key()).body(Map.of("to", idle.address())).post("/api/v1/telephony/simulator/inbound-call").then()
                .statusCode(200).body("action", equalTo("reject")).body("reason", equalTo("no_inbound_workflow"));

        Setup full = organization(Map.of("provider", "simulator", "ring_delay_ms", 5_000), unique(), true);
        as(idle.key()).body(Map.of("to", full.address())).post("/api/v1/telephony/simulator/inbound-call").then()
                .statusCode(404);
        new Sql(dataSource).update("UPDATE organizations SET concurrent_call_limit = 1 WHERE id = ?",
                full.account().organizationId());
        as(full.key()).body(Map.of("to", full.address())).post("/api/v1/telephony/simulator/inbound-call").then()
                .statusCode(200).body("action", equalTo("stream"));
        as(full.key()).body(Map.of("to", full.address())).post("/api/v1/telephony/simulator/inbound-call").then()
                .statusCode(200).body("action", equalTo("reject")).body("reason", equalTo("busy"));
    }

    /** Twilio's documented request signature: base64(HMAC-SHA1(auth token, URL + each sorted key and value)). */
    private static String twilioSignature(String url, Map<String, String> params) throws Exception {
        StringBuilder data = new StringBuilder(url);
        new TreeMap<>(params).forEach((k, v) -> data.append(k).append(v));
        Mac mac = Mac.getInstance("HmacSHA1");
        mac.init(new SecretKeySpec(TOKEN.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
        return Base64.getEncoder().encodeToString(mac.doFinal(data.toString().getBytes(StandardCharsets.UTF_8)));
    }

    private static String form(Map<String, String> params) {
        StringBuilder out = new StringBuilder();
        params.forEach((k, v) -> out.append(out.isEmpty() ? "" : "&").append(k).append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return out.toString();
    }

    @Test
    void twiliosSignedVoiceWebhookIsAnsweredWithAStreamAndAnUnsignedOneChangesNothing() throws Exception {
        Setup s = organization(Map.of("provider", "twilio", "account_sid", SID, "auth_token", TOKEN), unique(), true);
        Map<String, String> params = new TreeMap<>(Map.of("AccountSid", SID, "CallSid", "CA" + "1".repeat(32),
                "To", s.address(), "From", "+447700900123", "Direction", "inbound", "CallStatus", "ringing"));
        String url = "http://localhost:8081/api/v1/telephony/inbound/run";
        given().contentType("application/x-www-form-urlencoded; charset=UTF-8")
                .header("X-Twilio-Signature", "bm90IHRoZSBzaWduYXR1cmU=").body(form(params))
                .post("/api/v1/telephony/inbound/run").then().statusCode(403);
        assertThat(as(s.key()).get("/api/v1/workflow/" + s.workflow() + "/runs").then().extract().jsonPath()
                .getInt("total_count")).isZero();

        String twiml = given().contentType("application/x-www-form-urlencoded; charset=UTF-8")
                .header("X-Twilio-Signature", twilioSignature(url, params)).body(form(params))
                .post("/api/v1/telephony/inbound/run").then().statusCode(200).contentType("text/xml")
                .extract().asString();
        assertThat(twiml).startsWith("<?xml").contains("<Response><Connect><Stream url=\"ws://localhost:8081/api/v1/"
                + "telephony/ws/" + s.workflow() + "/").contains("<Parameter name=\"workflow_run_id\"");
        JsonPath runs = as(s.key()).get("/api/v1/workflow/" + s.workflow() + "/runs").then().extract().jsonPath();
        assertThat(runs.getInt("total_count")).isEqualTo(1);
        assertThat(runs.getString("runs[0].call_type")).isEqualTo("inbound");
        assertThat(new Sql(dataSource).queryString("SELECT provider_call_id FROM calls WHERE workflow_run_id = ?",
                runs.getLong("runs[0].id"))).isEqualTo("CA" + "1".repeat(32));

        // the number in its own route, and a number nobody has: the provider's reject instruction
        Map<String, String> unknown = new TreeMap<>(params);
        unknown.put("To", "+15559999999");
        String own = "http://localhost:8081/api/v1/telephony/twilio/inbound";
        given().contentType("application/x-www-form-urlencoded").header("X-Twilio-Signature", twilioSignature(own, unknown))
                .body(form(unknown)).post("/api/v1/telephony/twilio/inbound").then().statusCode(200)
                .body(org.hamcrest.Matchers.containsString("<Response><Reject/></Response>"));
        given().contentType(ContentType.JSON).body("{}").post("/api/v1/telephony/inbound/run").then().statusCode(400);
    }
}
