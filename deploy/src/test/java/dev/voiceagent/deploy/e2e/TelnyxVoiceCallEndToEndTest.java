package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeProviderServer;
import dev.voiceagent.deploy.support.FakeVoiceProviders;
import dev.voiceagent.deploy.support.FakeVoiceProviders.Reply;
import dev.voiceagent.deploy.support.SimulatedCaller;
import dev.voiceagent.deploy.support.SimulatedCaller.Carrier;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
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
 * Telnyx calls that talk, end to end: Call Control (a local stand-in that records each command) is told to stream the
 * caller's track to the signed media address in bidirectional RTP mode, on dial and on answer; a simulated caller
 * speaks Telnyx's media protocol there (PCMU, or PCMA on the way in; now and then a frame repeated late), with
 * Deepgram's, OpenAI's and ElevenLabs' protocols spoken by local stand-ins.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeProviderServer.class)
@WithTestResource(FakeVoiceProviders.class)
class TelnyxVoiceCallEndToEndTest {

    @Inject
    Vertx vertx;

    private KeyPair keys;
    private String key;
    private long workflow;
    private final List<SimulatedCaller> callers = new ArrayList<>();

    private static RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    @BeforeEach
    void setUp() throws Exception {
        FakeProviderServer.REQUESTS.clear();
        FakeProviderServer.status = 200;
        FakeVoiceProviders.reset();
        keys = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        byte[] encoded = keys.getPublic().getEncoded();
        String publicKey = Base64.getEncoder().encodeToString(Arrays.copyOfRange(encoded, encoded.length - 32,
                encoded.length));
        key = Api.createKey(Api.signUp("telnyx-voice"), "k");
        as(key).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                "llm", Map.of("provider", "openai", "api_key", "sk-voice-test", "model", "gpt-4.1-mini"),
                "stt", Map.of("provider", "deepgram", "api_key", "dg-voice-test", "model", "nova-3-general"),
                "tts", Map.of("provider", "elevenlabs", "api_key", "el-voice-test", "voice", "voice123")))))
                .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
        workflow = as(key).body(Map.of("name", "Orders", "workflow_definition", VoiceCallEndToEndTest.definition()))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        long config = as(key).body(Map.of("name", "Telnyx", "config", Map.of("provider", "telnyx", "api_key",
                "KEY123", "connection_id", "conn-1", "webhook_public_key", publicKey)))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200).extract().jsonPath()
                .getLong("id");
        as(key).body(Map.of("address", "+14155552671", "inbound_workflow_id", workflow))
                .post("/api/v1/organizations/telephony-configs/" + config + "/phone-numbers").then().statusCode(200);
    }

    @AfterEach
    void hangUp() {
        callers.forEach(SimulatedCaller::close);
    }

    private SimulatedCaller caller(String encoding) {
        SimulatedCaller caller = new SimulatedCaller(vertx, Carrier.TELNYX, encoding);
        callers.add(caller);
        return caller;
    }

    /** The streaming fields Call Control was given, checked; the media address. */
    private static String streamedTo(FakeProviderServer.Received command, long runId) {
        JsonPath sent = new JsonPath(command.body());
        assertThat(command.authorization()).isEqualTo("Bearer KEY123");
        assertThat(sent.getString("stream_track")).as("the caller's track only: the agent never hears itself")
                .isEqualTo("inbound_track");
        assertThat(sent.getString("stream_bidirectional_mode")).as("RTP, not queued MP3 files").isEqualTo("rtp");
        assertThat(sent.getString("stream_bidirectional_codec")).isEqualTo("PCMU");
        assertThat(sent.getString("stream_codec")).isEqualTo("PCMU");
        String url = sent.getString("stream_url");
        assertThat(url).startsWith("ws://localhost:8081/api/v1/telephony/ws/").contains("/" + runId + "/");
        return url;
    }

    private JsonPath completedRun(long runId) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            JsonPath run = as(key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then().statusCode(200)
                    .extract().jsonPath();
            if (run.getBoolean("is_completed")) {
                return run;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("run " + runId + " never completed");
    }

    private static List<FakeProviderServer.Received> commands(String suffix) {
        return FakeProviderServer.REQUESTS.stream().filter(r -> r.path().endsWith(suffix)).toList();
    }

    @Test
    void anOutboundCallStreamsBothWaysOnTheDialItselfTalksAndTheAgentHangsUpThroughCallControl() throws Exception {
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Where is my order?", "No that is all thanks."));
        FakeVoiceProviders.REPLIES.addAll(List.of(Reply.says("Your order ships today. Is there anything else?"),
                Reply.calls("done"), Reply.says("Thank you, goodbye.")));
        long runId = as(key).body(Map.of("workflow_id", workflow, "phone_number", "+442071838750"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");
        assertThat(FakeProviderServer.REQUESTS).extracting(FakeProviderServer.Received::path)
                .as("one dial, streaming inline: no separate streaming_start").containsExactly("/v2/calls");
        String callControlId = FakeProviderServer.lastSid;
        String url = streamedTo(FakeProviderServer.REQUESTS.getFirst(), runId);

        SimulatedCaller caller = caller("PCMU").connect(url);
        caller.pauses(1_600).says("Where is my order?").pauses(2_600).says("No that is all thanks.").pauses(1_000);
        String reason = caller.closed.get(30, TimeUnit.SECONDS);

        JsonPath run = completedRun(runId);
        assertThat(reason).as("ended with %s", run.getString("gathered_context.error")).isEqualTo("end_call_node");
        assertThat(caller.violations).isEmpty();
        assertThat(FakeVoiceProviders.VIOLATIONS).isEmpty();
        assertThat(caller.agentFramesBetween(0, caller.speech.get(0)[0])).as("the greeting played")
                .isGreaterThan(20);
        assertThat(caller.firstAgentFrameAfter(caller.speech.get(0)[1]) - caller.speech.get(0)[1])
                .as("voice-to-voice of the answer").isBetween(200L, 2_500L);
        assertThat(caller.marksEchoed).as("Telnyx's mark echoes pace the playout").isNotEmpty();
        for (int i = 0; i < 30 && commands("/actions/hangup").isEmpty(); i++) {
            Thread.sleep(100);
        }
        assertThat(commands("/actions/hangup")).as("the agent hung up through Call Control").singleElement()
                .satisfies(r -> assertThat(r.path()).isEqualTo("/v2/calls/" + callControlId + "/actions/hangup"));

        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).startsWith("assistant: Hello, this is Acme. How can I help you?\nuser: Where is my order?\n")
                .contains("user: No that is all thanks.\n").endsWith("assistant: Thank you, goodbye.\n");
        short[] left = callerChannel(Api.download(run.getString("recording_public_url")));
        long buzz = 0;
        for (short s : left) {
            buzz += Math.abs(s) >= 32_000 ? 1 : 0;
        }
        // a late frame is a full-scale buzz of 160 samples, and about one in fifty frames came again late
        assertThat(buzz).as("samples of late frames in the caller's recording").isLessThan(160);
    }

    /** A Call Control event about the run's call, signed with the configuration's key, as Telnyx posts it. */
    private void event(long runId, String type, String result) throws Exception {
        String body = "{\"data\":{\"id\":\"ev-" + UUID.randomUUID() + "\",\"event_type\":\"" + type
                + "\",\"payload\":{\"call_control_id\":\"" + FakeProviderServer.lastSid + "\",\"result\":\""
                + result + "\"}}}";
        String timestamp = String.valueOf(Instant.now().getEpochSecond());
        given().contentType(ContentType.JSON).header("telnyx-timestamp", timestamp).body(body)
                .post("/api/v1/telephony/telnyx/events/" + runId).then().statusCode(403);
        given().contentType(ContentType.JSON).header("telnyx-timestamp", timestamp)
                .header("telnyx-signature-ed25519", sign(timestamp, body)).body(body)
                .post("/api/v1/telephony/telnyx/events/" + runId).then().statusCode(200);
    }

    @Test
    void telnyxsMachineDetectionOnAWorkflowThatDetectsVoicemailLeavesTheMessageAfterTheBeep() throws Exception {
        String message = "Hi, this is Acme about your order. Please call us back.";
        as(key).body(Map.of("workflow_configurations", Map.of("voicemail_detection", Map.of("enabled", true,
                "action", "leave_message", "message", message)))).put("/api/v1/workflow/" + workflow).then()
                .statusCode(200);
        String greeting = "Hi, you have reached John. Please leave a message after the tone.";
        FakeVoiceProviders.CALLER_LINES.add(greeting);
        long runId = as(key).body(Map.of("workflow_id", workflow, "phone_number", "+442071838750"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");
        JsonPath dial = new JsonPath(FakeProviderServer.REQUESTS.getFirst().body());
        assertThat(dial.getString("answering_machine_detection")).as("asked because the workflow detects voicemail")
                .isEqualTo("detect_beep");
        SimulatedCaller caller = caller("PCMU").connect(streamedTo(FakeProviderServer.REQUESTS.getFirst(), runId));
        caller.pauses(1_600).says(greeting).pauses(4_000);
        Thread.sleep(2_300);
        event(runId, "call.machine.detection.ended", "machine");
        Thread.sleep(1_500);
        event(runId, "call.machine.greeting.ended", "beep_detected");
        String reason = caller.closed.get(30, TimeUnit.SECONDS);

        JsonPath run = completedRun(runId);
        assertThat(reason).as("ended with %s", run.getString("gathered_context.error")).isEqualTo("voicemail_detected");
        assertThat(FakeVoiceProviders.CLASSIFIER_REQUESTS).as("Telnyx decided: the model was not asked").isEmpty();
        assertThat(FakeVoiceProviders.TTS_TEXTS).containsSequence("Hi, this is Acme about your order.",
                "Please call us back.");
        List<Map<String, Object>> events = run.getList("logs.realtime_feedback_events");
        assertThat(events).filteredOn(e -> "rtf-carrier-amd".equals(e.get("type"))).singleElement()
                .satisfies(e -> assertThat(String.valueOf(e.get("payload"))).contains("machine"));
    }

    @Test
    void anInboundCallIsAnsweredWithItsStreamInOneCommandAndACallerOnALawIsHeard() throws Exception {
        FakeVoiceProviders.CALLER_LINES.add("What are your opening hours?");
        FakeVoiceProviders.REPLIES.add(Reply.says("We are open from nine to five."));
        String id = "v3:inbound-" + UUID.randomUUID();
        String initiated = "{\"data\":{\"id\":\"ev-" + id + "\",\"event_type\":\"call.initiated\",\"payload\":{"
                + "\"call_control_id\":\"" + id + "\",\"direction\":\"incoming\",\"to\":\"+14155552671\","
                + "\"from\":\"+447700900123\",\"connection_id\":\"conn-1\"}}}";
        String timestamp = String.valueOf(Instant.now().getEpochSecond());
        long runId = given().contentType(ContentType.JSON).header("telnyx-timestamp", timestamp)
                .header("telnyx-signature-ed25519", sign(timestamp, initiated)).body(initiated)
                .post("/api/v1/telephony/inbound/run").then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");
        assertThat(FakeProviderServer.REQUESTS).extracting(FakeProviderServer.Received::path)
                .containsExactly("/v2/calls/" + id + "/actions/answer");
        String url = streamedTo(FakeProviderServer.REQUESTS.getFirst(), runId);

        SimulatedCaller caller = caller("PCMA").connect(url);
        caller.pauses(1_600).says("What are your opening hours?").pauses(3_000);
        for (int i = 0; i < 60 && !FakeVoiceProviders.TTS_TEXTS.contains("We are open from nine to five."); i++) {
            Thread.sleep(100);
        }
        Thread.sleep(1_500);
        caller.hangUp();
        caller.closed.get(10, TimeUnit.SECONDS);

        JsonPath run = completedRun(runId);
        assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("user_hangup");
        assertThat(caller.violations).isEmpty();
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).contains("user: What are your opening hours?\n",
                "assistant: We are open from nine to five.\n");
        // the caller's A-law was turned into μ-law: its silences are silent (read as μ-law, A-law's silence is a hum)
        short[] left = callerChannel(Api.download(run.getString("recording_public_url")));
        short[] magnitudes = new short[left.length];
        for (int i = 0; i < left.length; i++) {
            magnitudes[i] = (short) Math.abs(left[i]);
        }
        Arrays.sort(magnitudes);
        assertThat((int) magnitudes[magnitudes.length / 2]).as("the caller channel's median loudness").isLessThan(100);
        assertThat((int) magnitudes[magnitudes.length * 99 / 100]).as("but the caller spoke").isGreaterThan(2_000);
    }

    @Test
    void aTransferRingsTheDestinationThroughCallControlWhispersItsRecordingAndStopsTheStream() throws Exception {
        byte[] wav = SimulatorVoiceCallEndToEndTest.toneWav(800);
        Map<String, Object> item = as(key).body(Map.of("files", List.of(Map.of("filename", "whisper.wav",
                "mime_type", "audio/wav", "file_size", wav.length)))).post("/api/v1/workflow-recordings/upload-url")
                .then().statusCode(200).extract().jsonPath().getMap("items[0]");
        io.restassured.RestAssured.given().urlEncodingEnabled(false).contentType("audio/wav").body(wav)
                .put((String) item.get("upload_url")).then().statusCode(200);
        as(key).body(Map.of("recordings", List.of(Map.of("recording_id", item.get("recording_id"),
                "storage_key", item.get("storage_key"), "transcript", "A caller for sales."))))
                .post("/api/v1/workflow-recordings/").then().statusCode(200);
        Map<String, Object> tool = Map.of("schema_version", 1, "type", "transfer_call", "config", Map.of(
                "destination", "sip:sales@pbx.example.com", "messageType", "custom", "customMessage",
                "Connecting you now.", "timeout", 25, "whisper_recording_id", item.get("recording_id")));
        String sales = as(key).body(Map.of("name", "Sales desk", "category", "transfer_call", "definition", tool))
                .post("/api/v1/tools/").then().statusCode(200).extract().path("tool_uuid");
        Map<String, Object> definition = VoiceCallEndToEndTest.definitionWithTools(List.of(sales));
        workflow = as(key).body(Map.of("name", "Transfers", "workflow_definition", definition))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        FakeVoiceProviders.CALLER_LINES.add("Put me through to sales.");
        FakeVoiceProviders.REPLIES.add(Reply.calls("sales_desk"));
        long runId = as(key).body(Map.of("workflow_id", workflow, "phone_number", "+442071838750"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");
        String callControlId = FakeProviderServer.lastSid;
        SimulatedCaller caller = caller("PCMU").connect(streamedTo(FakeProviderServer.REQUESTS.getFirst(), runId));
        caller.pauses(1_600).says("Put me through to sales.").pauses(4_000);

        JsonPath run = completedRun(runId);
        for (int i = 0; i < 50 && commands("/actions/streaming_stop").isEmpty(); i++) {
            Thread.sleep(100);
        }
        assertThat(FakeVoiceProviders.TTS_TEXTS).contains("Connecting you now.");
        assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("transfer_call");
        assertThat(FakeProviderServer.REQUESTS).extracting(FakeProviderServer.Received::path).containsSubsequence(
                "/v2/calls/" + callControlId + "/actions/transfer", "/v2/calls/" + callControlId
                        + "/actions/streaming_stop");
        JsonPath transfer = new JsonPath(commands("/actions/transfer").getFirst().body());
        assertThat(transfer.getString("to")).isEqualTo("sip:sales@pbx.example.com");
        assertThat(transfer.getInt("timeout_secs")).isEqualTo(25);
        // the whisper: Telnyx plays the recording to whoever answers, from a signed address of its file
        String whisper = transfer.getString("audio_url");
        assertThat(whisper).as("the whisper's address").isNotNull();
        byte[] played = io.restassured.RestAssured.given().redirects().follow(true).get(whisper).then()
                .statusCode(200).extract().asByteArray();
        assertThat(played).isEqualTo(wav);
        assertThat(commands("/actions/hangup")).as("a transferred call is not hung up").isEmpty();
    }

    /** The left (caller) channel of the run's stereo 16-bit recording. */
    private static short[] callerChannel(byte[] wav) {
        short[] left = new short[(wav.length - 44) / 4];
        for (int i = 0; i < left.length; i++) {
            int at = 44 + i * 4;
            left[i] = (short) ((wav[at] & 0xFF) | wav[at + 1] << 8);
        }
        return left;
    }

    private String sign(String timestamp, String body) throws Exception {
        Signature signer = Signature.getInstance("Ed25519");
        signer.initSign(keys.getPrivate());
        signer.update((timestamp + "|" + body).getBytes(StandardCharsets.UTF_8));
        return Base64.getEncoder().encodeToString(signer.sign());
    }
}
