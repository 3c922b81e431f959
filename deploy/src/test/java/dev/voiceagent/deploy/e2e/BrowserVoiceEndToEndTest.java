package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.BrowserCaller;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeProviderServer;
import dev.voiceagent.deploy.support.FakeVoiceProviders;
import dev.voiceagent.deploy.support.FakeVoiceProviders.Reply;
import dev.voiceagent.deploy.support.Sql;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Talking to an agent from a browser over the plain WebSocket voice route: 16-bit PCM at 16 kHz both ways and the
 * call's events live, on the same pipeline as phone calls (fake Deepgram, model and ElevenLabs speaking their own
 * protocols), for an editor's test run (the key in the query) and a voice widget's session (its token and page).
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeProviderServer.class)
@WithTestResource(FakeVoiceProviders.class)
public class BrowserVoiceEndToEndTest {

    @Inject
    Vertx vertx;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    dev.voiceagent.application.model.ModelConfigurationRepository modelConfigurations;

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    private String key;
    private long organization;
    private long workflow;
    private final List<BrowserCaller> callers = new ArrayList<>();

    private static RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    @BeforeEach
    void setUp() {
        FakeVoiceProviders.reset();
        Api.Account account = Api.signUp("browser");
        organization = account.organizationId();
        key = Api.createKey(account, "k");
        as(key).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                "llm", Map.of("provider", "openai", "api_key", "sk-voice-test", "model", "gpt-4.1-mini"),
                "stt", Map.of("provider", "deepgram", "api_key", "dg-voice-test", "model", "nova-3-general",
                        "language", "en"),
                "tts", Map.of("provider", "elevenlabs", "api_key", "el-voice-test", "voice", "voice123",
                        "model", "eleven_flash_v2_5")))))
                .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
        workflow = as(key).body(Map.of("name", "Orders", "workflow_definition", VoiceCallEndToEndTest.definition()))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
    }

    @AfterEach
    void hangUp() {
        callers.forEach(BrowserCaller::close);
    }

    private long browserRun(String apiKey, long workflowId, String mode) {
        return as(apiKey).body(Map.of("mode", mode, "name", "Test call")).post("/api/v1/workflow/" + workflowId
                + "/runs").then().statusCode(200).extract().jsonPath().getLong("id");
    }

    private String voiceUrl(long workflowId, long runId, String token) {
        return "ws://localhost:" + port + "/api/v1/ws/voice/" + workflowId + "/" + runId
                + (token == null ? "" : "?token=" + token);
    }

    private BrowserCaller caller(String url, MultiMap headers) throws Exception {
        BrowserCaller caller = new BrowserCaller(vertx);
        callers.add(caller);
        return caller.connect(url, headers);
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

    @Test
    void anEditorsTestCallGreetsHearsAnswersWithLiveEventsAndEndsWithItsTranscriptAndA16kHzRecording()
            throws Exception {
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Where is my order?", "No that is all thanks."));
        FakeVoiceProviders.REPLIES.addAll(List.of(Reply.says("Your order ships today. Is there anything else?"),
                Reply.calls("done"), Reply.says("Thank you, goodbye.")));
        long runId = browserRun(key, workflow, "smallwebrtc");

        BrowserCaller caller = caller(voiceUrl(workflow, runId, key), null);
        caller.pauses(1_600).says("Where is my order?").pauses(2_600).says("No that is all thanks.").pauses(1_000);
        String reason = caller.closed.get(30, TimeUnit.SECONDS);
        JsonPath run = completedRun(runId);
        assertThat(reason).as("closed with %s (fakes: %s)", run.getString("gathered_context.error"),
                FakeVoiceProviders.VIOLATIONS).isEqualTo("end_call_node");

        // the format first, then the call as it happened, each event as the run's log has it
        assertThat(caller.events.getFirst().getString("type")).isEqualTo("ready");
        assertThat(caller.events.getFirst().getJsonObject("payload").getInteger("sample_rate")).isEqualTo(16_000);
        assertThat(caller.events.getFirst().getJsonObject("payload").getString("encoding")).isEqualTo("pcm_s16le");
        assertThat(caller.events(("rtf-user-transcription"))).extracting(e -> e.getJsonObject("payload")
                .getString("text")).containsSubsequence("Where is my order?", "No that is all thanks.");
        assertThat(caller.events("rtf-bot-text")).extracting(e -> e.getJsonObject("payload").getString("text"))
                .contains("Your order ships today. Is there anything else?");
        assertThat(caller.events("rtf-bot-started-speaking")).hasSizeGreaterThanOrEqualTo(3);
        assertThat(caller.events("rtf-bot-stopped-speaking")).hasSizeGreaterThanOrEqualTo(2);
        assertThat(caller.events("rtf-node-transition")).isNotEmpty();
        // the goodbye node does not allow interruptions: the caller is muted while it speaks, and only then
        List<String> types = caller.events.stream().map(e -> e.getString("type")).toList();
        assertThat(caller.events("rtf-user-mute-started")).hasSize(1);
        assertThat(caller.events("rtf-user-mute-stopped")).hasSize(1);
        assertThat(types.indexOf("rtf-user-mute-started")).isGreaterThan(types.lastIndexOf("rtf-user-transcription"))
                .isLessThan(types.indexOf("rtf-user-mute-stopped"));
        assertThat(caller.events.getLast().getString("type")).isEqualTo("call-ended");
        assertThat(caller.events.getLast().getJsonObject("payload").getString("reason")).isEqualTo("end_call_node");

        // the greeting arrived as audio before the caller spoke, and the answer after the caller's line
        long greeting = caller.loudFramesBetween(0, caller.speech.getFirst()[0], -40);
        assertThat(greeting).as("loud greeting frames before the caller spoke").isGreaterThan(20);
        long answer = caller.firstAgentFrameAfter(caller.speech.getFirst()[1]);
        assertThat(answer - caller.speech.getFirst()[1]).as("voice-to-voice").isBetween(200L, 2_500L);

        // the providers were asked for the browser's format: no transcoding on the way
        assertThat(FakeVoiceProviders.VIOLATIONS).isEmpty();
        assertThat(FakeVoiceProviders.STT_QUERIES.getFirst()).contains("encoding=linear16", "sample_rate=16000");
        assertThat(FakeVoiceProviders.TTS_QUERIES.getFirst()).contains("output_format=pcm_16000");

        // the run: connected (no longer waiting to be abandoned), its transcript and a 16 kHz stereo recording
        assertThat(run.getString("mode")).isEqualTo("smallwebrtc");
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).startsWith("assistant: Hello, this is Acme. How can I help you?\nuser: Where is my order?\n")
                .endsWith("assistant: Thank you, goodbye.\n");
        byte[] wav = Api.download(run.getString("recording_public_url"));
        ByteBuffer header = ByteBuffer.wrap(wav, 0, 44).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(header.getShort(22)).as("channels").isEqualTo((short) 2);
        assertThat(header.getInt(24)).as("sample rate").isEqualTo(16_000);
        assertThat((wav.length - 44) / 64_000.0).isCloseTo(run.getDouble("usage_info.call_duration_seconds"),
                within(1.0));
        long callerLoud = 0;
        long agentLoud = 0;
        for (int i = 44; i + 3 < wav.length; i += 4) {
            callerLoud += Math.abs((short) ((wav[i] & 0xFF) | wav[i + 1] << 8)) > 1_000 ? 1 : 0;
            agentLoud += Math.abs((short) ((wav[i + 2] & 0xFF) | wav[i + 3] << 8)) > 1_000 ? 1 : 0;
        }
        assertThat(callerLoud / 16_000.0).as("seconds of the caller's speech on the left").isBetween(0.3, 5.0);
        assertThat(agentLoud / 16_000.0).as("seconds of the agent's speech on the right").isBetween(1.0, 8.0);
    }

    @Test
    void aCallerWhoSpeaksOverTheAgentGetsAClearAndTheAnswerStops() throws Exception {
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Tell me about returns.", "Stop please."));
        FakeVoiceProviders.REPLIES.addAll(List.of(new Reply("Returns are easy. You can send anything back within"
                + " thirty days of delivery, in its original box or without it, with the receipt or without it.",
                null, 60, null), Reply.says("Sure.")));
        long runId = browserRun(key, workflow, "webrtc");
        BrowserCaller caller = caller(voiceUrl(workflow, runId, key), null);
        caller.pauses(1_600).says("Tell me about returns.").pauses(2_900).says("Stop please.").pauses(1_500);
        Thread.sleep(12_000);
        assertThat(caller.clears).as("the long answer was cut by the caller's second line").hasSize(1);
        assertThat(caller.clears.getFirst() - caller.speech.get(1)[0]).as("barge-in").isBetween(50L, 900L);
        assertThat(caller.events("rtf-interruption")).hasSize(1);
        assertThat(caller.events("rtf-bot-stopped-speaking")).anySatisfy(e -> assertThat(
                e.getJsonObject("payload").getBoolean("interrupted")).isTrue());
        caller.send(new JsonObject().put("type", "hangup"));
        assertThat(caller.closed.get(10, TimeUnit.SECONDS)).isNotNull();
        assertThat(completedRun(runId).getBoolean("is_completed")).isTrue();
    }

    @Test
    void aVoiceWidgetTalksOnItsSessionFromAnAllowedPageOnly() throws Exception {
        FakeVoiceProviders.CALLER_LINES.add("Goodbye.");
        FakeVoiceProviders.REPLIES.addAll(List.of(Reply.calls("done"), Reply.says("Bye.")));
        String token = as(key).body(Map.of("allowed_domains", List.of("example.com"), "settings",
                        Map.of("widgetType", "voice"))).post("/api/v1/workflow/" + workflow + "/embed-token").then()
                .statusCode(200).extract().path("token");
        JsonPath init = given().header("Origin", "https://www.example.com").contentType(ContentType.JSON)
                .body(Map.of("token", token)).post("/api/v1/public/embed/init").then().statusCode(200).extract()
                .jsonPath();
        String session = init.getString("session_token");
        long runId = init.getLong("workflow_run_id");
        String url = "ws://localhost:" + port + "/api/v1/ws/public/voice/" + session;

        assertRefused(url, MultiMap.caseInsensitiveMultiMap().add("Origin", "https://evil.example"), 403);
        assertRefused("ws://localhost:" + port + "/api/v1/ws/public/voice/emb_session_unknown",
                MultiMap.caseInsensitiveMultiMap().add("Origin", "https://www.example.com"), 404);

        BrowserCaller caller = caller(url, MultiMap.caseInsensitiveMultiMap().add("Origin", "https://www.example.com"));
        caller.pauses(1_600).says("Goodbye.").pauses(1_000);
        assertThat(caller.closed.get(30, TimeUnit.SECONDS)).isEqualTo("end_call_node");
        assertThat(caller.loudFramesBetween(0, caller.speech.getFirst()[0], -40)).isGreaterThan(20);
        JsonPath run = completedRun(runId);
        assertThat(run.getString("mode")).isEqualTo("smallwebrtc");
        assertThat(run.getString("transcript_public_url")).isNotBlank();
        // the session's run is over: a second socket on it is refused
        assertRefused(url, MultiMap.caseInsensitiveMultiMap().add("Origin", "https://www.example.com"), 409);
    }

    @Test
    void theVoiceRouteIsRefusedBeforeTheUpgradeWithoutCredentialsForAnotherOrganizationOrAPhoneRun()
            throws Exception {
        long runId = browserRun(key, workflow, "smallwebrtc");
        assertRefused(voiceUrl(workflow, runId, null), null, 401);
        assertRefused(voiceUrl(workflow, runId, "not-a-key"), null, 401);
        String other = Api.createKey(Api.signUp("browser-other"), "k");
        assertRefused(voiceUrl(workflow, runId, other), null, 404);
        long phoneRun = browserRun(key, workflow, "twilio");
        assertRefused(voiceUrl(workflow, phoneRun, key), null, 409);
        // the key in a header works as well as in the query; a second socket on a connected run is refused
        BrowserCaller first = caller(voiceUrl(workflow, runId, null), MultiMap.caseInsensitiveMultiMap()
                .add("X-API-Key", key));
        first.pauses(500);
        assertRefused(voiceUrl(workflow, runId, key), null, 409);
        // connected: running and held by this replica, so the sweep of browser runs that never connected (after five
        // minutes, WorkflowRunsEndToEndTest) leaves it alone; the run nobody connected to is still waiting
        assertThat(new Sql(dataSource).queryString("SELECT state || ' ' || (media_owner IS NOT NULL)"
                + " FROM workflow_runs WHERE id = ?", runId)).isEqualTo("running true");
        long unconnected = browserRun(key, workflow, "webrtc");
        assertThat(new Sql(dataSource).queryString("SELECT state FROM workflow_runs WHERE id = ?", unconnected))
                .isEqualTo("initialized");
        given().get("/api/v1/ws/voice/" + workflow + "/" + runId + "?token=" + key).then().statusCode(400);
    }

    @Test
    void theWebRtcSignalingIsRefusedAsTheVoiceRouteAndSaysWhatItCannotUse() throws Exception {
        long runId = browserRun(key, workflow, "smallwebrtc");
        String base = "ws://localhost:" + port + "/api/v1/ws/signaling/" + workflow + "/" + runId;
        assertRefused(base, null, 401);
        assertRefused(base + "?token=" + Api.createKey(Api.signUp("signaling-other"), "k"), null, 404);
        assertRefused("ws://localhost:" + port + "/api/v1/ws/signaling/" + workflow + "/"
                + browserRun(key, workflow, "twilio") + "?token=" + key, null, 409);
        assertRefused("ws://localhost:" + port + "/api/v1/ws/public/signaling/emb_session_unknown",
                MultiMap.caseInsensitiveMultiMap().add("Origin", "https://www.example.com"), 404);
        given().get("/api/v1/ws/signaling/" + workflow + "/" + runId + "?token=" + key).then().statusCode(400);

        BrowserCaller caller = caller(base + "?token=" + key, null);
        caller.pauses(300);
        // the run's media is this socket's: a second one is told so, as the reference tells the dashboard
        BrowserCaller twice = caller(base + "?token=" + key, null);
        assertThat(twice.closed.get(10, TimeUnit.SECONDS)).isEqualTo("workflow_run_already_active");
        assertThat(twice.events("error").getFirst().getJsonObject("payload").getString("error_type"))
                .isEqualTo("workflow_run_already_active");
        caller.send(new JsonObject().put("type", "renegotiate").put("payload", new JsonObject()));
        caller.send(new JsonObject().put("type", "hello"));
        caller.send(new JsonObject().put("type", "ice-candidate").put("payload", new JsonObject()
                .put("candidate", new JsonObject().put("candidate", "candidate:1 1 udp 1 192.0.2.1 9 typ host"))));
        caller.send(new JsonObject().put("type", "offer").put("payload", new JsonObject().put("pc_id", "pc-1")
                .put("type", "offer").put("sdp", "v=0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=rtpmap:96 VP8/90000\r\n")));

        assertThat(caller.closed.get(20, TimeUnit.SECONDS)).isEqualTo("pipeline_error");
        assertThat(caller.events("error").stream().map(e -> e.getJsonObject("payload").getString("error_type")))
                .containsExactly("renegotiation_unsupported", "bad_message", "bad_offer");
        assertThat(caller.events("error").getLast().getJsonObject("payload").getString("message"))
                .contains("no audio with Opus");
        JsonObject ended = caller.events("call-ended").getFirst().getJsonObject("payload");
        assertThat(ended.getLong("workflow_run_id")).isEqualTo(runId);
        assertThat(ended.getString("pc_id")).isEqualTo("pc-1");
        assertThat(ended.getString("reason")).isEqualTo("pipeline_error");
        assertThat(completedRun(runId).getBoolean("is_completed")).isTrue();
        // a finished test run: the dashboard is told so and offers a new test
        BrowserCaller again = caller(base + "?token=" + key, null);
        assertThat(again.closed.get(10, TimeUnit.SECONDS)).isEqualTo("workflow_run_already_completed");
        assertThat(again.events("error").getFirst().getJsonObject("payload").getString("message"))
                .contains("already finished");

        // an editor's call_context_vars the run cannot take: said, the call ended, nothing kept on the run
        long another = browserRun(key, workflow, "smallwebrtc");
        BrowserCaller second = caller("ws://localhost:" + port + "/api/v1/ws/signaling/" + workflow + "/" + another
                + "?token=" + key, null);
        second.send(new JsonObject().put("type", "offer").put("payload", new JsonObject().put("pc_id", "pc-2")
                .put("type", "offer").put("sdp", OFFER).put("call_context_vars", new JsonObject()
                        .put("customer_name", "Ada").put("address", new JsonObject().put("city", "Paris")))));
        assertThat(second.closed.get(20, TimeUnit.SECONDS)).isEqualTo("pipeline_error");
        assertThat(second.events("answer")).hasSize(1);
        assertThat(second.events("error").getFirst().getJsonObject("payload").getString("message"))
                .contains("call_context_vars.address");
        JsonPath refused = completedRun(another);
        assertThat(refused.getString("initial_context.customer_name")).isNull();
        assertThat(refused.getString("gathered_context.call_disposition")).isEqualTo("pipeline_error");

        // a browser that leaves before its offer: the run ends at once as hung up (not left to the sweep)
        long left = browserRun(key, workflow, "smallwebrtc");
        BrowserCaller leaving = caller("ws://localhost:" + port + "/api/v1/ws/signaling/" + workflow + "/" + left
                + "?token=" + key, null);
        leaving.close();
        assertThat(completedRun(left).getString("gathered_context.call_disposition")).isEqualTo("user_hangup");
    }

    /** A browser's offer: Opus audio over DTLS-SRTP (nobody answers its checks: the test is about the signaling). */
    private static final String OFFER = String.join("\r\n", "v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0",
            "a=group:BUNDLE 0", "m=audio 9 UDP/TLS/RTP/SAVPF 111", "c=IN IP4 0.0.0.0", "a=ice-ufrag:abcd",
            "a=ice-pwd:abcdefghijklmnopqrstuvwx", "a=fingerprint:sha-256 " + "AB:".repeat(31) + "AB",
            "a=setup:actpass", "a=mid:0", "a=sendrecv", "a=rtcp-mux", "a=rtpmap:111 opus/48000/2", "") + "\r\n";

    private void assertRefused(String url, MultiMap headers, int status) {
        BrowserCaller caller = new BrowserCaller(vertx);
        callers.add(caller);
        assertThatThrownBy(() -> caller.connect(url, headers)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(WebSocketHandshakeException.class)
                .satisfies(e -> assertThat(((WebSocketHandshakeException) e).getResponse().statusCode())
                        .isEqualTo(status));
    }

    @Test
    void aBrowserCallOnAProviderTheRuntimeCannotUseIsToldWhyBeforeItEnds() throws Exception {
        Map<String, Object> pipeline = Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline",
                "pipeline", Map.of("llm", Map.of("provider", "openai", "api_key", "sk-voice-test"),
                        "stt", Map.of("provider", "huggingface", "api_key", "hf_voice-test"),
                        "tts", Map.of("provider", "elevenlabs", "api_key", "el-voice-test"))));
        // stored before the save-time check existed (it is refused when saved now)
        modelConfigurations.saveOrganizationConfiguration(organization, pipeline, java.time.Instant.now()).await()
                .indefinitely();
        long runId = browserRun(key, workflow, "smallwebrtc");
        BrowserCaller caller = caller(voiceUrl(workflow, runId, key), null);
        assertThat(caller.closed.get(20, TimeUnit.SECONDS)).isEqualTo("pipeline_error");
        assertThat(caller.events("rtf-pipeline-error")).as("the dashboard's pipeline error, with the reason")
                .singleElement().satisfies(e -> {
                    assertThat(e.getJsonObject("payload").getString("error")).contains("Hugging Face", "cannot listen on a call");
                    assertThat(e.getJsonObject("payload").getBoolean("fatal")).isTrue();
                });
        assertThat(completedRun(runId).getString("gathered_context.error")).contains("Hugging Face");
    }
}
