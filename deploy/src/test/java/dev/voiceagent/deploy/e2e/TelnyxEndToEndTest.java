package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeProviderServer;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Telnyx gateway against a local server that checks what it sends, and Ed25519-signed events. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeProviderServer.class)
class TelnyxEndToEndTest {

    private KeyPair keys;
    private String key;
    private long workflow;

    private RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    @BeforeEach
    void telnyxConfiguration() throws Exception {
        FakeProviderServer.REQUESTS.clear();
        FakeProviderServer.status = 200;
        keys = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        byte[] encoded = keys.getPublic().getEncoded();
        String publicKey = Base64.getEncoder().encodeToString(Arrays.copyOfRange(encoded, encoded.length - 32, encoded.length));
        key = Api.createKey(Api.signUp("telnyx"), "k");
        workflow = as(key).body(Map.of("name", "Caller", "workflow_definition", WorkflowEndToEndTest.definition("Hi")))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        long config = as(key).body(Map.of("name", "Telnyx", "config", Map.of("provider", "telnyx", "api_key", "KEY123",
                "connection_id", "conn-1", "webhook_public_key", publicKey)))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200).extract().jsonPath().getLong("id");
        as(key).body(Map.of("address", "+14155552671", "inbound_workflow_id", workflow))
                .post("/api/v1/organizations/telephony-configs/" + config + "/phone-numbers").then().statusCode(200);
    }

    private io.restassured.response.ValidatableResponse inbound(String body, boolean signed) throws Exception {
        String timestamp = String.valueOf(Instant.now().getEpochSecond());
        var request = given().contentType(ContentType.JSON).header("telnyx-timestamp", timestamp);
        if (signed) {
            request = request.header("telnyx-signature-ed25519", sign(timestamp, body));
        }
        return request.body(body).post("/api/v1/telephony/inbound/run").then();
    }

    @Test
    void anIncomingCallIsAnsweredAndStreamedThroughCallControlAndItsHangupEndsTheRun() throws Exception {
        String id = "v3:inbound-" + UUID.randomUUID();
        String initiated = "{\"data\":{\"id\":\"ev-in-1\",\"event_type\":\"call.initiated\",\"payload\":{"
                + "\"call_control_id\":\"" + id + "\",\"direction\":\"incoming\",\"to\":\"+14155552671\","
                + "\"from\":\"+447700900123\",\"connection_id\":\"conn-1\"}}}";
        inbound(initiated, false).statusCode(403); // other organizations share the number: the signature decides
        assertThat(FakeProviderServer.REQUESTS).isEmpty();

        long runId = inbound(initiated, true).statusCode(200).body("status", equalTo("answered")).extract().jsonPath()
                .getLong("workflow_run_id");
        assertThat(FakeProviderServer.REQUESTS).extracting(FakeProviderServer.Received::path).containsExactly(
                "/v2/calls/" + id + "/actions/answer");
        assertThat(FakeProviderServer.REQUESTS).allSatisfy(r -> assertThat(r.authorization()).isEqualTo("Bearer KEY123"));
        JsonPath stream = new JsonPath(FakeProviderServer.REQUESTS.getFirst().body());
        assertThat(stream.getString("stream_url")).startsWith("ws://localhost:8081/api/v1/telephony/ws/" + workflow + "/")
                .contains("/" + runId + "/");
        assertThat(stream.getString("stream_track")).isEqualTo("inbound_track");
        assertThat(stream.getString("stream_bidirectional_mode")).isEqualTo("rtp");
        assertThat(stream.getString("webhook_url")).endsWith("/api/v1/telephony/telnyx/events/" + runId);
        as(key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then().body("call_type", equalTo("inbound"))
                .body("is_completed", equalTo(false));

        String hangup = "{\"data\":{\"id\":\"ev-in-2\",\"event_type\":\"call.hangup\",\"payload\":{"
                + "\"call_control_id\":\"" + id + "\",\"hangup_cause\":\"normal_clearing\"}}}";
        inbound(hangup, true).statusCode(200).body("status", equalTo("applied: completed"));
        as(key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then().body("is_completed", equalTo(true));
    }

    private String sign(String timestamp, String body) throws Exception {
        Signature signer = Signature.getInstance("Ed25519");
        signer.initSign(keys.getPrivate());
        signer.update((timestamp + "|" + body).getBytes(StandardCharsets.UTF_8));
        return Base64.getEncoder().encodeToString(signer.sign());
    }

    private io.restassured.response.ValidatableResponse event(long runId, String id, String type, String cause,
            long timestamp, boolean signed) throws Exception {
        String body = "{\"data\":{\"id\":\"" + id + "\",\"event_type\":\"" + type + "\",\"payload\":{\"call_control_id\":\""
                + FakeProviderServer.lastSid + "\"" + (cause == null ? "" : ",\"hangup_cause\":\"" + cause + "\"") + "}}}";
        var request = given().contentType(ContentType.JSON).header("telnyx-timestamp", String.valueOf(timestamp));
        if (signed) {
            request = request.header("telnyx-signature-ed25519", sign(String.valueOf(timestamp), body));
        }
        return request.body(body).post("/api/v1/telephony/telnyx/events/" + runId).then();
    }

    @Test
    void dialsWithBearerAuthAndSignedEventsDriveTheRun() throws Exception {
        long runId = as(key).body(Map.of("workflow_id", workflow, "phone_number", "+442071838750"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200).extract().jsonPath().getLong("workflow_run_id");
        assertThat(FakeProviderServer.REQUESTS).hasSize(1);
        var request = FakeProviderServer.REQUESTS.getFirst();
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.path()).isEqualTo("/v2/calls");
        assertThat(request.authorization()).isEqualTo("Bearer KEY123");
        JsonPath sent = new JsonPath(request.body());
        assertThat(sent.getString("connection_id")).isEqualTo("conn-1");
        assertThat(sent.getString("to")).isEqualTo("+442071838750");
        assertThat(sent.getString("from")).isEqualTo("+14155552671");
        assertThat(sent.getString("webhook_url")).isEqualTo("http://localhost:8081/api/v1/telephony/telnyx/events/" + runId);
        assertThat(sent.getString("stream_url")).as("the call streams from the moment it is answered")
                .startsWith("ws://localhost:8081/api/v1/telephony/ws/" + workflow + "/").contains("/" + runId + "/");
        assertThat(sent.getString("stream_track")).isEqualTo("inbound_track");
        assertThat(sent.getString("stream_bidirectional_mode")).isEqualTo("rtp");
        assertThat(sent.getString("stream_bidirectional_codec")).isEqualTo("PCMU");

        long now = Instant.now().getEpochSecond();
        event(runId, "ev-1", "call.answered", null, now, false).statusCode(403);
        event(runId, "ev-1", "call.answered", null, now - 3600, true).statusCode(403);
        as(key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then().body("is_completed", equalTo(false));

        event(runId, "ev-1", "call.answered", null, now, true).statusCode(200).body("status", equalTo("applied: in-progress"));
        event(runId, "ev-1", "call.answered", null, now, true).statusCode(200).body("status", equalTo("duplicate"));
        event(runId, "ev-2", "call.hangup", "busy", now, true).statusCode(200).body("status", equalTo("applied: busy"));
        event(runId, "ev-3", "call.hangup", "normal_clearing", now, true).statusCode(200)
                .body("status", equalTo("ignored: already busy"));
        as(key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then().body("is_completed", equalTo(true))
                .body("gathered_context.mapped_call_disposition", equalTo("busy"));
    }
}
