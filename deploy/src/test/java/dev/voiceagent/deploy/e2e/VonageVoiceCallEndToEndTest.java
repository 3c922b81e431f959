package dev.voiceagent.deploy.e2e;

import static dev.voiceagent.deploy.support.VoiceAgents.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceagent.adapters.telephony.vonage.VonageJwt;
import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeProviderServer;
import dev.voiceagent.deploy.support.FakeVoiceProviders;
import dev.voiceagent.deploy.support.FakeVoiceProviders.Reply;
import dev.voiceagent.deploy.support.SimulatedCaller;
import dev.voiceagent.deploy.support.SimulatedCaller.Carrier;
import dev.voiceagent.deploy.support.VoiceAgents;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Vonage calls that talk, end to end: its Voice API (a local stand-in that takes only the application's RS256 token
 * and an NCCO streaming linear PCM) creates the call with its NCCO inline; its events come signed as Vonage signs them
 * (HS256 with the signature secret, the body's payload_hash); a simulated caller speaks Vonage's websocket protocol at
 * the NCCO's address (16 kHz PCM in 640-byte binary messages; notify and clear actions), with Deepgram's, OpenAI's and
 * ElevenLabs' protocols spoken by local stand-ins.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeProviderServer.class)
@WithTestResource(FakeVoiceProviders.class)
class VonageVoiceCallEndToEndTest {

    private static final String API_KEY = "vonage-key";
    private static final String SECRET = "vonage-signature-secret";
    private static final String APPLICATION = "aaaaaaaa-bbbb-cccc-dddd-0123456789ab";

    @Inject
    Vertx vertx;

    private String key;
    private long workflow;
    private String privateKey;
    private final List<SimulatedCaller> callers = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        FakeProviderServer.REQUESTS.clear();
        FakeProviderServer.status = 201;
        FakeVoiceProviders.reset();
        KeyPair pair = KeyPairGenerator.getInstance("RSA").generateKeyPair();
        FakeProviderServer.vonageKey = pair.getPublic();
        FakeProviderServer.vonageApplication = APPLICATION;
        privateKey = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder().encodeToString(pair.getPrivate()
                .getEncoded()) + "\n-----END PRIVATE KEY-----\n";
        key = VoiceAgents.organization("vonage-voice");
        workflow = VoiceAgents.workflow(key, "Orders", VoiceCallEndToEndTest.definition());
    }

    @AfterEach
    void hangUp() {
        callers.forEach(SimulatedCaller::close);
    }

    private long configuration(String secret, String pem) {
        return configuration(secret, pem, "+14155552671");
    }

    private long configuration(String secret, String pem, String number) {
        Map<String, Object> config = new LinkedHashMap<>(Map.of("provider", "vonage", "api_key", API_KEY,
                "api_secret", "vonage-api-secret", "application_id", APPLICATION, "private_key", pem));
        if (secret != null) {
            config.put("signature_secret", secret);
        }
        long id = as(key).body(Map.of("name", "Vonage " + UUID.randomUUID(), "config", config))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200).extract().jsonPath().getLong("id");
        as(key).body(Map.of("address", number, "inbound_workflow_id", workflow))
                .post("/api/v1/organizations/telephony-configs/" + id + "/phone-numbers").then().statusCode(200);
        return id;
    }

    private SimulatedCaller caller() {
        SimulatedCaller caller = new SimulatedCaller(vertx, Carrier.VONAGE, "L16");
        callers.add(caller);
        return caller;
    }

    /** A Vonage event about the run's call, signed as Vonage signs it (an unsigned copy refused first). */
    private static void event(long runId, JsonObject event, int unsignedStatus) {
        String body = event.encode();
        given().contentType(ContentType.JSON).body(body).post("/api/v1/telephony/vonage/events/" + runId).then()
                .statusCode(unsignedStatus);
        given().contentType(ContentType.JSON).header("Authorization", "Bearer " + VonageJwt.webhook(SECRET, API_KEY,
                body, Instant.now())).body(body).post("/api/v1/telephony/vonage/events/" + runId).then()
                .statusCode(200);
    }

    private static JsonObject status(String uuid, String status) {
        return new JsonObject().put("uuid", uuid).put("conversation_uuid", "CON-" + uuid).put("status", status)
                .put("direction", "outbound").put("timestamp", Instant.now().toString());
    }

    private JsonPath completedRun(long runId) throws InterruptedException {
        return VoiceAgents.completedRun(key, workflow, runId);
    }

    private static List<FakeProviderServer.Received> requests(String method) {
        return FakeProviderServer.REQUESTS.stream().filter(r -> r.method().equals(method)).toList();
    }

    @Test
    void aVonageCallCreatedWithItsNccoTalksIsInterruptedAndTheAgentHangsUpThroughTheVoiceApi() throws Exception {
        configuration(SECRET, privateKey);
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Where is my order?", "Tell me about returns.",
                "No that is all thanks."));
        FakeVoiceProviders.REPLIES.addAll(List.of(Reply.says("Your order ships today. Is there anything else?"),
                new Reply(VoiceCallEndToEndTest.RETURNS + " " + VoiceCallEndToEndTest.REFUNDS, null, 60, null),
                Reply.calls("done"), Reply.says("Thank you, goodbye.")));
        long runId = as(key).body(Map.of("workflow_id", workflow, "phone_number", "+442071838750"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");
        FakeProviderServer.Received create = FakeProviderServer.first("POST", "/v1/calls");
        assertThat(create.path()).isEqualTo("/v1/calls");
        JsonObject call = new JsonObject(create.body());
        assertThat(call.getJsonArray("to").getJsonObject(0).getString("number")).isEqualTo("442071838750");
        assertThat(call.getJsonObject("from").getString("number")).isEqualTo("14155552671");
        assertThat(call.getJsonArray("event_url").getString(0)).endsWith("/api/v1/telephony/vonage/events/" + runId);
        assertThat(call.getString("answer_url")).as("the NCCO inline: no address hands out the media").isNull();
        JsonObject endpoint = call.getJsonArray("ncco").getJsonObject(0).getJsonArray("endpoint").getJsonObject(0);
        assertThat(endpoint.getString("type")).isEqualTo("websocket");
        assertThat(endpoint.getString("content-type")).isEqualTo("audio/l16;rate=16000");
        String uri = endpoint.getString("uri");
        assertThat(uri).startsWith("ws://localhost:8081/api/v1/telephony/ws/").contains("/" + runId + "/");
        String uuid = FakeProviderServer.lastSid;

        event(runId, status(uuid, "started"), 403);
        event(runId, status(uuid, "ringing"), 403);
        event(runId, status(uuid, "answered"), 403);
        SimulatedCaller caller = caller().connect(uri);
        // the websocket leg's own events (its own uuid) are acknowledged and change nothing
        event(runId, status("ws-leg-" + uuid, "answered"), 403);
        caller.pauses(1_600).says("Where is my order?").pauses(2_600).says("Tell me about returns.").pauses(2_900)
                .says("No that is all thanks.").pauses(1_000);
        String reason = caller.closed.get(40, TimeUnit.SECONDS);
        for (int i = 0; i < 30 && requests("PUT").stream().noneMatch(r -> r.path().endsWith(uuid)); i++) {
            Thread.sleep(100);
        }
        assertThat(requests("PUT")).as("the agent hung up through the Voice API")
                .filteredOn(r -> r.path().endsWith(uuid)).singleElement().satisfies(r -> {
            assertThat(r.path()).isEqualTo("/v1/calls/" + uuid);
            assertThat(new JsonObject(r.body()).getString("action")).isEqualTo("hangup");
        });
        event(runId, status(uuid, "completed").put("duration", "14"), 403);

        JsonPath run = completedRun(runId);
        assertThat(reason).as("ended with %s", run.getString("gathered_context.error")).isEqualTo("end_call_node");
        assertThat(caller.violations).isEmpty();
        assertThat(FakeVoiceProviders.VIOLATIONS).isEmpty();
        assertThat(FakeVoiceProviders.STT_QUERIES.getFirst()).as("16 kHz PCM heard as it came")
                .contains("encoding=linear16", "sample_rate=16000");
        assertThat(caller.agentFramesBetween(0, caller.speech.get(0)[0])).as("the greeting played").isGreaterThan(20);
        assertThat(caller.firstAgentFrameAfter(caller.speech.get(0)[1]) - caller.speech.get(0)[1])
                .as("voice-to-voice of the answer").isBetween(200L, 2_500L);
        assertThat(caller.marksEchoed).as("notify echoes pace the playout").isNotEmpty();
        assertThat(caller.clears).as("the barge-in cleared Vonage's audio").hasSize(1);
        assertThat(caller.clears.getFirst() - caller.speech.get(2)[0]).as("caller speech start to clear")
                .isBetween(50L, 900L);
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).startsWith("assistant: Hello, this is Acme. How can I help you?\nuser: Where is my order?\n")
                .contains("user: Tell me about returns.\n").endsWith("assistant: Thank you, goodbye.\n");
        assertThat(Api.download(run.getString("recording_public_url")).length).isGreaterThan(44 + 4 * 16000 * 5);
    }

    @Test
    void anInboundCallIsAnsweredWithAnNccoOnlyWhenSignedByTheAccountAndRefusedWithAnEmptyOne() throws Exception {
        configuration(SECRET, privateKey);
        FakeVoiceProviders.CALLER_LINES.add("What are your opening hours?");
        FakeVoiceProviders.REPLIES.add(Reply.says("We are open from nine to five."));
        String uuid = "inbound-" + UUID.randomUUID();
        String body = new JsonObject().put("uuid", uuid).put("conversation_uuid", "CON-" + uuid)
                .put("from", "447700900123").put("to", "14155552671").encode();
        given().contentType(ContentType.JSON).header("Authorization", "Bearer " + VonageJwt.webhook("wrong-secret",
                API_KEY, body, Instant.now())).body(body).post("/api/v1/telephony/inbound/run").then().statusCode(403);
        String tampered = body.replace("447700900123", "447700900999");
        given().contentType(ContentType.JSON).header("Authorization", "Bearer " + VonageJwt.webhook(SECRET, API_KEY,
                body, Instant.now())).body(tampered).post("/api/v1/telephony/inbound/run").then().statusCode(403);
        JsonPath ncco = given().contentType(ContentType.JSON).header("Authorization", "Bearer "
                        + VonageJwt.webhook(SECRET, API_KEY, body, Instant.now())).body(body)
                .post("/api/v1/telephony/inbound/run").then().statusCode(200).extract().jsonPath();
        assertThat(ncco.getString("[0].action")).isEqualTo("connect");
        assertThat(ncco.getString("[0].endpoint[0].content-type")).isEqualTo("audio/l16;rate=16000");
        assertThat(ncco.getString("[0].endpoint[0].headers.call_uuid")).isEqualTo(uuid);
        String uri = ncco.getString("[0].endpoint[0].uri");
        long runId = Long.parseLong(ncco.getString("[0].endpoint[0].headers.workflow_run_id"));
        assertThat(ncco.getString("[0].eventUrl[0]")).endsWith("/api/v1/telephony/vonage/events/" + runId);

        SimulatedCaller caller = caller().connect(uri);
        caller.pauses(1_600).says("What are your opening hours?").pauses(3_000);
        for (int i = 0; i < 60 && !FakeVoiceProviders.TTS_TEXTS.contains("We are open from nine to five."); i++) {
            Thread.sleep(100);
        }
        Thread.sleep(1_500);
        caller.hangUp();
        JsonPath run = completedRun(runId);
        assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("user_hangup");
        assertThat(caller.violations).isEmpty();
        assertThat(new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8))
                .contains("user: What are your opening hours?\n", "assistant: We are open from nine to five.\n");
        // the application's own event address finds the run by the call's uuid
        String completed = status(uuid, "completed").put("direction", "inbound").encode();
        given().contentType(ContentType.JSON).header("Authorization", "Bearer " + VonageJwt.webhook(SECRET, API_KEY,
                completed, Instant.now())).body(completed).post("/api/v1/telephony/vonage/events").then().statusCode(200);

        String unknown = new JsonObject().put("uuid", "u2").put("conversation_uuid", "CON-u2").put("from", "447700900123")
                .put("to", "19995550000").encode();
        given().contentType(ContentType.JSON).header("Authorization", "Bearer " + VonageJwt.webhook(SECRET, API_KEY,
                unknown, Instant.now())).body(unknown).post("/api/v1/telephony/vonage/inbound").then().statusCode(200)
                .body("size()", equalTo(0));
    }

    @Test
    void withoutASignatureSecretNothingDialsAndAKeyVonageCannotTakeIsRefusedWithItsReason() {
        long unsigned = configuration(null, privateKey);
        as(key).get("/api/v1/organizations/telephony-configs/" + unsigned).then().statusCode(200)
                .body("is_ready_for_outbound", equalTo(false))
                .body("outbound_blocked_reason", containsString("signature_secret"));
        long pkcs1 = configuration(SECRET, "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----",
                "+14155552672");
        as(key).body(Map.of("workflow_id", workflow, "phone_number", "+442071838750", "telephony_configuration_id",
                        pkcs1))
                .post("/api/v1/telephony/initiate-call").then().statusCode(400)
                .body("detail", containsString("PKCS#8"));
        assertThat(FakeProviderServer.REQUESTS).as("nothing reached Vonage")
                .noneMatch(r -> "POST".equals(r.method()));
    }

    @Test
    void aTransferMovesTheCallToAnNccoThatConnectsTheDestination() throws Exception {
        configuration(SECRET, privateKey);
        Map<String, Object> tool = Map.of("schema_version", 1, "type", "transfer_call", "config", Map.of(
                "destination", "sip:sales@pbx.example.com", "messageType", "custom", "customMessage",
                "Connecting you now.", "timeout", 25));
        String sales = as(key).body(Map.of("name", "Sales desk", "category", "transfer_call", "definition", tool))
                .post("/api/v1/tools/").then().statusCode(200).extract().path("tool_uuid");
        workflow = as(key).body(Map.of("name", "Transfers", "workflow_definition",
                        VoiceCallEndToEndTest.definitionWithTools(List.of(sales))))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        FakeVoiceProviders.CALLER_LINES.add("Put me through to sales.");
        FakeVoiceProviders.REPLIES.add(Reply.calls("sales_desk"));
        long runId = as(key).body(Map.of("workflow_id", workflow, "phone_number", "+442071838750"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");
        String uuid = FakeProviderServer.lastSid;
        String uri = new JsonObject(FakeProviderServer.first("POST", "/v1/calls").body()).getJsonArray("ncco").getJsonObject(0)
                .getJsonArray("endpoint").getJsonObject(0).getString("uri");
        event(runId, status(uuid, "answered"), 403);
        SimulatedCaller caller = caller().connect(uri);
        caller.pauses(1_600).says("Put me through to sales.").pauses(4_000);

        JsonPath run = completedRun(runId);
        for (int i = 0; i < 50 && requests("PUT").stream().noneMatch(r -> r.path().endsWith(uuid)); i++) {
            Thread.sleep(100);
        }
        assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("transfer_call");
        assertThat(FakeVoiceProviders.TTS_TEXTS).contains("Connecting you now.");
        assertThat(requests("PUT")).as("moved, not hung up").filteredOn(r -> r.path().endsWith(uuid))
                .singleElement().satisfies(r -> {
            assertThat(r.path()).isEqualTo("/v1/calls/" + uuid);
            JsonObject transfer = new JsonObject(r.body());
            assertThat(transfer.getString("action")).isEqualTo("transfer");
            JsonObject connect = transfer.getJsonObject("destination").getJsonArray("ncco").getJsonObject(0);
            assertThat(connect.getString("action")).isEqualTo("connect");
            assertThat(connect.getInteger("timeout")).isEqualTo(25);
            assertThat(connect.getJsonArray("endpoint").getJsonObject(0).getString("uri"))
                    .isEqualTo("sip:sales@pbx.example.com");
        });
    }

    @Test
    void machineDetectionIsAskedForAWorkflowThatDetectsVoicemailAndItsSignedVerdictIsTaken() {
        configuration(SECRET, privateKey);
        as(key).body(Map.of("workflow_configurations", Map.of("voicemail_detection", Map.of("enabled", true,
                "action", "hang_up")))).put("/api/v1/workflow/" + workflow).then().statusCode(200);
        long runId = as(key).body(Map.of("workflow_id", workflow, "phone_number", "+442071838750"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");
        assertThat(new JsonObject(FakeProviderServer.first("POST", "/v1/calls").body()).getString("machine_detection"))
                .isEqualTo("continue");
        String body = status(FakeProviderServer.lastSid, "machine").put("sub_state", "beep_start").encode();
        given().contentType(ContentType.JSON).header("Authorization", "Bearer " + VonageJwt.webhook(SECRET, API_KEY,
                body, Instant.now())).body(body).post("/api/v1/telephony/vonage/events/" + runId).then()
                .statusCode(200).body("status", equalTo("answering machine detection: machine"));
    }
}
