package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.assertj.core.api.Assertions.within;

import dev.voiceagent.adapters.telephony.FormBody;
import dev.voiceagent.adapters.telephony.twilio.TwilioSignature;
import dev.voiceagent.application.call.VoiceRuntime;
import dev.voiceagent.application.model.ModelConfigurationRepository;
import dev.voiceagent.application.voice.runtime.VoiceSessions;
import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeProviderServer;
import dev.voiceagent.deploy.support.FakeRealtimeModel;
import dev.voiceagent.deploy.support.FakeToolServers;
import dev.voiceagent.deploy.support.FakeVoiceProviders;
import dev.voiceagent.deploy.support.FakeVoiceProviders.Reply;
import dev.voiceagent.deploy.support.SimulatedCaller;
import dev.voiceagent.deploy.support.Speech;
import dev.voiceagent.deploy.support.TwilioCalls;
import dev.voiceagent.domain.audio.Wav;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Vertx;
import io.vertx.core.http.UpgradeRejectedException;
import jakarta.inject.Inject;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A phone call that talks, end to end: an outbound Twilio call (a local stand-in for Twilio's REST API) streams its
 * media to the address in its TwiML, where a simulated Twilio caller speaks and listens; speech-to-text, the language
 * model and text-to-speech are local stand-ins speaking Deepgram's, OpenAI's and ElevenLabs' protocols.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeProviderServer.class)
@WithTestResource(FakeVoiceProviders.class)
class VoiceCallEndToEndTest {

    private static final String SID = TwilioCalls.SID;
    private static final Pattern STREAM = Pattern.compile("<Stream url=\"([^\"]+)\"");
    /** The long answer the caller cuts into: written and spoken, then cut mid-way; then what was never written. */
    static final String RETURNS = "Returns are easy. You can send anything back within thirty days of"
            + " delivery, in its original box or without it, with the receipt or without it.";
    static final String REFUNDS = "We will refund you in full once it arrives at our warehouse in good"
            + " condition, usually within five working days of the day it arrives, by the same means you paid with.";

    @Inject
    Vertx vertx;

    @Inject
    VoiceRuntime runtime;

    @Inject
    VoiceSessions sessions;

    @Inject
    ModelConfigurationRepository modelConfigurations;

    private Api.Account account;
    private String key;
    private long workflow;
    private final List<SimulatedCaller> callers = new ArrayList<>();
    private final List<FakeToolServers> toolServers = new ArrayList<>();

    private static RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    static Map<String, Object> definition() {
        Map<String, Object> start = new LinkedHashMap<>();
        start.put("name", "Start");
        start.put("prompt", "You help callers with their orders.");
        start.put("greeting", "Hello, this is Acme. How can I help you?");
        start.put("greeting_type", "text");
        start.put("allow_interrupt", true);
        return Map.of(
                "nodes", List.of(
                        Map.of("id", "start", "type", "startCall", "position", Map.of("x", 0, "y", 0), "data", start),
                        Map.of("id", "end", "type", "endCall", "position", Map.of("x", 0, "y", 200), "data",
                                Map.of("name", "Goodbye", "prompt", "Thank the caller and say goodbye."))),
                "edges", List.of(Map.of("id", "e1", "source", "start", "target", "end", "data",
                        Map.of("label", "Done", "condition", "The caller has nothing more to ask"))));
    }

    @BeforeEach
    void setUp() {
        FakeProviderServer.REQUESTS.clear();
        FakeProviderServer.status = 201;
        FakeVoiceProviders.reset();
        account = Api.signUp("voice");
        key = Api.createKey(account, "k");
        as(key).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                "llm", Map.of("provider", "openai", "api_key", "sk-voice-test", "model", "gpt-4.1-mini"),
                "stt", Map.of("provider", "deepgram", "api_key", "dg-voice-test", "model", "nova-3-general",
                        "language", "en"),
                "tts", Map.of("provider", "elevenlabs", "api_key", "el-voice-test", "voice", "voice123",
                        "model", "eleven_flash_v2_5")))))
                .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
        workflow = as(key).body(Map.of("name", "Orders", "workflow_definition", definition()))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        calls = new TwilioCalls(key);
        twilioConfig = calls.config;
    }

    private TwilioCalls calls;
    private long twilioConfig;

    @AfterEach
    void hangUp() {
        callers.forEach(SimulatedCaller::close);
        toolServers.forEach(FakeToolServers::close);
    }

    /** An http_api tool "Order status" (GET {api}/orders/{{order_id}}); its uuid. */
    private String orderStatusTool(FakeToolServers api) {
        Map<String, Object> tool = Map.of("schema_version", 1, "type", "http_api", "config", Map.of("method", "GET",
                "url", api.base + "/orders/{{order_id}}", "parameters", List.of(Map.of("name", "order_id",
                        "type", "string", "description", "The order number", "required", true))));
        return as(key).body(Map.of("name", "Order status", "category", "http_api", "definition", tool))
                .post("/api/v1/tools/").then().statusCode(200).extract().path("tool_uuid");
    }

    /** Places the call; the media address Twilio was told to stream to. */
    private String dial() {
        return calls.dial(workflow);
    }

    private SimulatedCaller caller() {
        SimulatedCaller caller = new SimulatedCaller(vertx);
        callers.add(caller);
        return caller;
    }

    private static long runOf(String url) {
        return TwilioCalls.runOf(url);
    }

    private JsonPath run(long runId) {
        return calls.run(workflow, runId);
    }

    private JsonPath completedRun(long runId) throws InterruptedException {
        return calls.completedRun(workflow, runId);
    }

    @Test
    void aCallGreetsHearsLooksUpAnAnswerIsInterruptedMovesOnAndHangsUpAfterItsGoodbye() throws Exception {
        FakeToolServers api = new FakeToolServers();
        toolServers.add(api);
        workflow = workflowWithTools("Orders with a tool", List.of(orderStatusTool(api)));
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Where is my order?", "Tell me about returns.",
                "No that is all thanks."));
        FakeVoiceProviders.REPLIES.addAll(List.of(
                Reply.calls("order_status", "{\"order_id\": \"A-17\"}"), // the order is looked up first
                Reply.says("Your order ships today. Is there anything else?"),
                new Reply(RETURNS + " " + REFUNDS, null, 60, null), // still writing when the caller cuts in
                Reply.calls("done"),
                Reply.says("Thank you, goodbye.")));
        String url = dial();
        long runId = runOf(url);
        assertThat(run(runId).getBoolean("is_completed")).isFalse();

        SimulatedCaller caller = caller().connect(url);
        caller.pauses(1_600).says("Where is my order?").pauses(2_600).says("Tell me about returns.").pauses(2_900)
                .says("No that is all thanks.").pauses(1_000);
        String reason = ended(caller, runId);

        // the agent hung up after its goodbye was heard: every mark it sent came back first
        JsonPath run = completedRun(runId);
        assertThat(reason).as("the call ended with %s (fakes at %s: %s)", run.getString("gathered_context.error"),
                        FakeVoiceProviders.base, FakeVoiceProviders.VIOLATIONS)
                .isEqualTo("end_call_node");
        for (int i = 0; i < 30 && FakeProviderServer.REQUESTS.stream().noneMatch(r -> "completed".equals(
                FormBody.first(FormBody.parse(r.body()), "Status"))); i++) {
            Thread.sleep(100);
        }
        assertThat(FakeProviderServer.REQUESTS).as("the agent hung up at Twilio too, after closing the stream")
                .anySatisfy(r -> assertThat(FormBody.first(FormBody.parse(r.body()), "Status")).isEqualTo("completed"));
        assertThat(caller.violations).isEmpty();
        assertThat(caller.speech).hasSize(3);
        long greetingFrames = caller.agentFramesBetween(0, caller.speech.get(0)[0]);
        assertThat(greetingFrames).as("the greeting played before the caller spoke").isGreaterThan(20);
        long firstAnswer = caller.firstAgentFrameAfter(caller.speech.get(0)[1]);
        assertThat(firstAnswer - caller.speech.get(0)[1]).as("voice-to-voice of the first answer")
                .isBetween(200L, 2_500L);
        // the barge-in: the caller's third line cut the long answer short, with a clear to the carrier
        assertThat(caller.clears).hasSize(1);
        long bargeIn = caller.clears.getFirst() - caller.speech.get(2)[0];
        // voice activity's 96 ms of voiced windows (the first may begin a window before the first frame louder than
        // -45 dBFS), then the clear
        assertThat(bargeIn).as("caller speech start to clear").isBetween(50L, 900L);

        // every provider was spoken to in its own protocol
        assertThat(FakeVoiceProviders.VIOLATIONS).isEmpty();
        assertThat(FakeVoiceProviders.STT_QUERIES.getFirst()).contains("encoding=mulaw", "sample_rate=8000",
                "model=nova-3-general", "interim_results=true", "language=en");
        assertThat(FakeVoiceProviders.STT_AUDIO_FRAMES.get()).isGreaterThan(300);
        assertThat(FakeVoiceProviders.STT_CONTROL).filteredOn("Finalize"::equals).hasSize(3);
        assertThat(FakeVoiceProviders.STT_CONTROL).contains("KeepAlive", "CloseStream");
        List<Long> keepAlives = FakeVoiceProviders.STT_KEEPALIVES_AT;
        for (int i = 1; i < keepAlives.size(); i++) {
            assertThat(keepAlives.get(i) - keepAlives.get(i - 1)).isLessThanOrEqualTo(5_000);
        }
        assertThat(FakeVoiceProviders.TTS_QUERIES.getFirst()).contains("output_format=ulaw_8000",
                "model_id=eleven_flash_v2_5", "sync_alignment=true");
        assertThat(FakeVoiceProviders.TTS_MAX_CONTEXTS.get()).isBetween(1, 5);
        assertThat(FakeVoiceProviders.TTS_TEXTS).startsWith("Hello, this is Acme.", "How can I help you?",
                "Your order ships today.", "Is there anything else?", "Returns are easy.");
        assertThat(FakeVoiceProviders.TTS_TEXTS).contains("Thank you, goodbye.").doesNotContain(REFUNDS);
        assertThat(api.at("/orders/A-17")).as("the tool ran once, with the model's arguments").hasSize(1);
        assertThat(FakeVoiceProviders.CHAT_REQUESTS).hasSize(5).allSatisfy(r -> {
            assertThat(r.getBoolean("stream")).isTrue();
            assertThat(r.getJsonObject("stream_options").getBoolean("include_usage")).isTrue();
        });
        // the agent is held from the caller's first 0.2 s and cut once their words show a turn: this fake recognizer
        // gives none before the final, by which time the model may have finished writing (else its stream is closed)
        assertThat(FakeVoiceProviders.CHAT_CANCELLED.get()).as("the interrupted answer's stream").isBetween(0, 1);

        // what the call left on its run
        assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("end_call_node");
        assertThat(run.getDouble("usage_info.call_duration_seconds")).isGreaterThan(5.0);
        assertThat(run.getInt("usage_info.llm.'openai/gpt-4.1-mini'.total_tokens"))
                .as("what the model billed: four answers, and the interrupted one's if its stream finished while held")
                .isEqualTo(FakeVoiceProviders.CHAT_CANCELLED.get() == 1 ? 240 : 300);
        assertThat(run.getDouble("usage_info.stt.'deepgram/nova-3-general'.audio_seconds")).isGreaterThan(5.0);
        assertThat(run.getInt("usage_info.tts.'elevenlabs/eleven_flash_v2_5'.characters")).isGreaterThan(100);
        List<Map<String, Object>> events = run.getList("logs.realtime_feedback_events");
        assertThat(events).extracting(e -> e.get("type")).contains("rtf-user-transcription", "rtf-bot-text",
                "rtf-interruption", "rtf-node-transition", "rtf-latency-measured", "rtf-call-ended",
                "rtf-function-call-start", "rtf-function-call-end", "rtf-ttfb-metric");
        // the latency and time-to-first-byte fields the reference's dashboard and QA metrics read
        assertThat(payloads(events, "rtf-latency-measured")).allSatisfy(p -> assertThat(
                ((Number) p.get("latency_seconds")).doubleValue() * 1000).isCloseTo(
                ((Number) p.get("user_stop_to_bot_started_ms")).doubleValue(), org.assertj.core.data.Offset.offset(1.0)));
        assertThat(payloads(events, "rtf-ttfb-metric")).anySatisfy(p -> {
            assertThat(p).containsEntry("processor", "llm").containsEntry("model", "gpt-4.1-mini");
            assertThat(((Number) p.get("ttfb_seconds")).doubleValue()).isGreaterThan(0.2); // the fake's 250 ms
        }).anySatisfy(p -> assertThat(p).containsEntry("processor", "tts"));
        Map<String, Object> interruption = events.stream().filter(e -> "rtf-interruption".equals(e.get("type")))
                .findFirst().orElseThrow();
        @SuppressWarnings("unchecked")
        String heard = (String) ((Map<String, Object>) interruption.get("payload")).get("heard_text");
        // the sentence cut mid-way keeps the words the caller heard (ElevenLabs' alignment), never more
        assertThat(heard).as("the words heard of the cut sentence").startsWith("Returns are easy. You can")
                .isNotEqualTo(RETURNS).doesNotContain("refund").satisfies(h -> assertThat(RETURNS).startsWith(h));

        // the transcript keeps what was said as heard; the recording is a stereo WAV, the caller left, the agent right
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).startsWith("assistant: Hello, this is Acme. How can I help you?\nuser: Where is my order?\n")
                .contains("assistant: " + heard + "\n", "user: No that is all thanks.\n")
                .endsWith("assistant: Thank you, goodbye.\n").doesNotContain("refund");
        byte[] wav = Api.download(run.getString("recording_public_url"));
        ByteBuffer header = ByteBuffer.wrap(wav, 0, 44).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(new String(wav, 0, 4, StandardCharsets.US_ASCII)).isEqualTo("RIFF");
        assertThat(header.getShort(22)).as("channels").isEqualTo((short) 2);
        assertThat(header.getInt(24)).as("sample rate").isEqualTo(8_000);
        double seconds = (wav.length - 44) / 32_000.0;
        assertThat(seconds).isCloseTo(run.getDouble("usage_info.call_duration_seconds"), within(1.0));
        long callerLoud = 0;
        long agentLoud = 0;
        for (int i = 44; i + 3 < wav.length; i += 4) {
            callerLoud += Math.abs((short) ((wav[i] & 0xFF) | wav[i + 1] << 8)) > 1_000 ? 1 : 0;
            agentLoud += Math.abs((short) ((wav[i + 2] & 0xFF) | wav[i + 3] << 8)) > 1_000 ? 1 : 0;
        }
        double said = caller.speech.stream().mapToLong(sp -> sp[1] - sp[0]).sum() / 1000.0;
        assertThat(callerLoud / 8_000.0).as("seconds of the caller's speech on the left").isBetween(0.3 * said, said);
        assertThat(agentLoud / 8_000.0).as("seconds of the agent's speech on the right").isBetween(1.0, 8.0);
    }

    @Test
    void aCallSpeaksWithCartesiaAndABargeInKeepsTheWordsCartesiaTimedAsHeard() throws Exception {
        as(key).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                "llm", Map.of("provider", "openai", "api_key", "sk-voice-test", "model", "gpt-4.1-mini"),
                "stt", Map.of("provider", "deepgram", "api_key", "dg-voice-test"),
                "tts", Map.of("provider", "cartesia", "api_key", "ca-voice-test", "voice", "voice-uuid-1")))))
                .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Tell me about returns.", "No that is all thanks."));
        FakeVoiceProviders.REPLIES.addAll(List.of(new Reply(RETURNS + " " + REFUNDS, null, 60, null),
                Reply.calls("done"), Reply.says("Thank you, goodbye.")));
        String url = dial();
        SimulatedCaller caller = caller().connect(url);
        caller.pauses(1_600).says("Tell me about returns.").pauses(2_000).says("No that is all thanks.").pauses(1_000);
        String reason = ended(caller, runOf(url));

        JsonPath run = completedRun(runOf(url));
        assertThat(reason).as("ended with %s", run.getString("gathered_context.error")).isEqualTo("end_call_node");
        assertThat(FakeVoiceProviders.VIOLATIONS).isEmpty();
        assertThat(caller.violations).isEmpty();
        assertThat(FakeVoiceProviders.TTS_QUERIES).allSatisfy(q -> assertThat(q).isEqualTo("cartesia sonic-3.5 pcm_mulaw"));
        assertThat(FakeVoiceProviders.TTS_TEXTS).startsWith("Hello, this is Acme.", "How can I help you?",
                "Returns are easy.").contains("Thank you, goodbye.").doesNotContain(REFUNDS);
        assertThat(caller.clears).hasSize(1);
        assertThat(caller.agentFramesBetween(0, caller.speech.get(0)[0])).as("the greeting played").isGreaterThan(20);
        List<Map<String, Object>> events = run.getList("logs.realtime_feedback_events");
        @SuppressWarnings("unchecked")
        String heard = (String) ((Map<String, Object>) events.stream().filter(e -> "rtf-interruption".equals(
                e.get("type"))).findFirst().orElseThrow().get("payload")).get("heard_text");
        assertThat(heard).as("what the caller heard of the cut answer, by Cartesia's word timestamps")
                .startsWith("Returns are easy.").doesNotContain("refund").satisfies(h -> assertThat(RETURNS).startsWith(h));
        assertThat(run.getInt("usage_info.tts.'cartesia/sonic-3.5'.characters")).isGreaterThan(50);
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).contains("assistant: " + heard + "\n").endsWith("assistant: Thank you, goodbye.\n");
    }

    @Test
    void aVoiceChosenForTheWorkflowIsTheOneItsCallsSpeakWith() throws Exception {
        // the organization speaks with ElevenLabs (setUp); this workflow with Cartesia
        as(key).body(Map.of("workflow_configurations", Map.of("model_overrides", Map.of("stt", Map.of("provider",
                "huggingface"))))).put("/api/v1/workflow/" + workflow).then().statusCode(400)
                .body("detail", org.hamcrest.Matchers.containsString("model_overrides.stt"));
        as(key).body(Map.of("workflow_configurations", Map.of("model_overrides", Map.of("tts", Map.of("provider",
                "cartesia", "api_key", "ca-workflow", "voice", "workflow-voice"))))).put("/api/v1/workflow/" + workflow)
                .then().statusCode(200);
        FakeVoiceProviders.REPLIES.add(Reply.says("Hello."));
        String url = dial();
        SimulatedCaller caller = caller().connect(url);
        caller.pauses(1_500);
        for (int i = 0; i < 30 && FakeVoiceProviders.TTS_QUERIES.isEmpty(); i++) {
            Thread.sleep(100);
        }
        caller.hangUp();
        caller.closed.get(10, TimeUnit.SECONDS);
        assertThat(FakeVoiceProviders.TTS_QUERIES).isNotEmpty()
                .allSatisfy(q -> assertThat(q).startsWith("cartesia "));
        assertThat(FakeVoiceProviders.TTS_TEXTS).startsWith("Hello, this is Acme.");
        assertThat(completedRun(runOf(url)).getMap("usage_info.tts")).containsOnlyKeys("cartesia/sonic-3.5");
    }

    @Test
    void theWorkflowsCallSettingsActOnItsCalls() throws Exception {
        as(key).body(Map.of("workflow_configurations", Map.of("turn_stop_strategy", "turn_analyzer")))
                .put("/api/v1/workflow/" + workflow).then().statusCode(400)
                .body("detail", containsString("end-of-turn model"));
        // a short idle time: the silent caller is prompted once, then the call ends as idle
        as(key).body(Map.of("workflow_configurations", Map.of("max_user_idle_timeout", 2, "dictionary",
                "Acme, Zyrtec"))).put("/api/v1/workflow/" + workflow).then().statusCode(200);
        String url = dial();
        SimulatedCaller caller = caller().connect(url);
        caller.pauses(20_000);
        assertThat(ended(caller, runOf(url))).isEqualTo("user_idle_max_duration_exceeded");
        assertThat(FakeVoiceProviders.TTS_TEXTS).contains("Are you still there?");
        assertThat(FakeVoiceProviders.STT_QUERIES).singleElement().satisfies(q -> assertThat(q)
                .contains("keyterm=Acme&keyterm=Zyrtec"));
        JsonPath idle = completedRun(runOf(url));
        assertThat(idle.getDouble("usage_info.call_duration_seconds")).isBetween(4.0, 12.0);

        // a short call: it ends at its length whatever it is doing
        as(key).body(Map.of("workflow_configurations", Map.of("max_call_duration", 5, "max_user_idle_timeout", 60)))
                .put("/api/v1/workflow/" + workflow).then().statusCode(200);
        String second = dial();
        SimulatedCaller another = caller().connect(second);
        another.pauses(20_000);
        assertThat(ended(another, runOf(second))).isEqualTo("call_duration_exceeded");
        assertThat(completedRun(runOf(second)).getDouble("usage_info.call_duration_seconds")).isBetween(4.5, 7.0);
    }

    @Test
    void anAmbientSoundPlaysUnderTheAgentOnTheLineAndInTheRecordingTheDefaultOrTheWorkflowsOwnWav() throws Exception {
        as(key).body(Map.of("workflow_configurations", Map.of("ambient_noise_configuration", Map.of("enabled", true,
                "storage_key", "ambient_noise/999999/1/5f1c_hum.wav")))).put("/api/v1/workflow/" + workflow)
                .then().statusCode(400).body("detail", containsString("this organization's"));
        // the default: a room tone at half volume (-26 dBFS at full), alone between the agent's words
        as(key).body(Map.of("workflow_configurations", Map.of("ambient_noise_configuration", Map.of("enabled", true,
                "volume", 0.5)))).put("/api/v1/workflow/" + workflow).then().statusCode(200);
        String url = dial();
        SimulatedCaller caller = caller().connect(url);
        caller.pauses(4_500);
        waitUntil(caller::scriptPlayed);
        long end = System.currentTimeMillis();
        caller.hangUp();
        ended(caller, runOf(url));
        List<Double> quiet = caller.agentLevelsBetween(end - 2_000, end);
        assertThat(quiet).as("the sound goes on after the greeting, a frame per 20 ms").hasSizeBetween(90, 110)
                .allSatisfy(level -> assertThat(level).as("never silence").isBetween(-55.0, -20.0));
        double power = quiet.stream().mapToDouble(level -> Math.pow(10, level / 10)).average().orElseThrow();
        assertThat(10 * Math.log10(power)).as("the room tone at half volume").isBetween(-35.0, -29.0);
        byte[] wav = Api.download(completedRun(runOf(url)).getString("recording_public_url"));
        int lastSecond = wav.length - 2 * 32_000;
        long agentSilent = 0;
        for (int i = lastSecond - lastSecond % 4; i + 3 < wav.length - 32_000; i += 4) {
            agentSilent += (short) ((wav[i + 2] & 0xFF) | wav[i + 3] << 8) == 0 ? 1 : 0;
        }
        assertThat(agentSilent).as("the recording's agent track has the sound, not digital silence")
                .isLessThan(400);

        // the workflow's own file: a 300 Hz hum recorded at 16 kHz (-15 dBFS), uploaded and played at full volume
        short[] hum = new short[16_000 * 2];
        for (int i = 0; i < hum.length; i++) {
            hum[i] = (short) Math.round(8_000 * Math.sin(2 * Math.PI * 300 * i / 16_000.0));
        }
        ByteBuffer buffer = ByteBuffer.allocate(44 + hum.length * 2).order(ByteOrder.LITTLE_ENDIAN);
        buffer.put(Wav.header(1, 16_000, hum.length * 2L));
        for (short sample : hum) {
            buffer.putShort(sample);
        }
        byte[] file = buffer.array();
        JsonPath upload = as(key).body(Map.of("workflow_id", workflow, "filename", "hum.wav", "file_size",
                file.length)).post("/api/v1/workflow/ambient-noise/upload-url").then().statusCode(200)
                .extract().jsonPath();
        given().contentType("audio/wav").body(file).put(upload.getString("upload_url")).then().statusCode(200);
        as(key).body(Map.of("workflow_configurations", Map.of("ambient_noise_configuration", Map.of("enabled", true,
                "volume", 1.0, "storage_key", upload.getString("storage_key"), "storage_backend",
                upload.getString("storage_backend"))))).put("/api/v1/workflow/" + workflow).then().statusCode(200);
        String second = dial();
        SimulatedCaller another = caller().connect(second);
        another.pauses(4_000);
        waitUntil(another::scriptPlayed);
        long secondEnd = System.currentTimeMillis();
        another.hangUp();
        ended(another, runOf(second));
        assertThat(another.agentLevelsBetween(secondEnd - 1_500, secondEnd)).hasSizeGreaterThan(60)
                .allSatisfy(level -> assertThat(level).as("the file's hum, not the room tone")
                        .isBetween(-17.0, -14.0));
    }

    private static void waitUntil(java.util.function.BooleanSupplier done) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 20_000;
        while (!done.getAsBoolean() && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertThat(done.getAsBoolean()).isTrue();
    }

    @Test
    void aBackchannelOverTheAgentResumesItAndWithProvisionalVoiceActivityAnyWordsCutIt() throws Exception {
        // the default turn start: "Okay." over the long answer holds it a moment, then it goes on to its end
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Tell me about returns.", "Okay.", "No that is all thanks."));
        FakeVoiceProviders.REPLIES.addAll(List.of(new Reply(RETURNS + " " + REFUNDS, null, 60, null),
                Reply.calls("done"), Reply.says("Thank you, goodbye.")));
        String url = dial();
        SimulatedCaller caller = caller().connect(url);
        caller.pauses(1_600).says("Tell me about returns.").pauses(2_600).says("Okay.").pauses(5_000)
                .says("No that is all thanks.").pauses(1_000);
        String reason = ended(caller, runOf(url));
        JsonPath run = completedRun(runOf(url));
        assertThat(reason).as("ended with %s", run.getString("gathered_context.error")).isEqualTo("end_call_node");
        assertThat(caller.clears).as("held once").hasSize(1);
        assertThat(caller.agentFramesBetween(caller.clears.getFirst() + 300, caller.speech.get(2)[0]))
                .as("the answer went on after the hold").isGreaterThan(25);
        assertThat(FakeVoiceProviders.TTS_TEXTS).contains(REFUNDS);
        assertThat(FakeVoiceProviders.CHAT_REQUESTS).as("the backchannel was never a turn").hasSize(3)
                .noneSatisfy(r -> assertThat(r.encode()).contains("Okay."));
        List<Map<String, Object>> events = run.getList("logs.realtime_feedback_events");
        assertThat(events).noneMatch(e -> "rtf-interruption".equals(e.get("type")));
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).contains("assistant: " + RETURNS + " " + REFUNDS + "\n").doesNotContain("Okay.");

        // provisional_vad: the reference's rule, any words within the pause are a turn
        as(key).body(Map.of("workflow_configurations", Map.of("turn_start_strategy", "provisional_vad",
                "provisional_vad_pause_secs", 1.0))).put("/api/v1/workflow/" + workflow).then().statusCode(200);
        as(key).body(Map.of("workflow_configurations", Map.of("turn_start_strategy", "provisional_vad",
                "provisional_vad_pause_secs", 0))).put("/api/v1/workflow/" + workflow).then().statusCode(400)
                .body("detail", containsString("provisional_vad_pause_secs"));
        FakeVoiceProviders.reset();
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Tell me about returns.", "Okay.", "No that is all thanks."));
        FakeVoiceProviders.REPLIES.addAll(List.of(new Reply(RETURNS + " " + REFUNDS, null, 60, null),
                Reply.says("Good. Anything else?"), Reply.calls("done"), Reply.says("Thank you, goodbye.")));
        String second = dial();
        SimulatedCaller another = caller().connect(second);
        another.pauses(1_600).says("Tell me about returns.").pauses(2_600).says("Okay.").pauses(3_000)
                .says("No that is all thanks.").pauses(1_000);
        assertThat(ended(another, runOf(second))).isEqualTo("end_call_node");
        assertThat(another.clears).hasSize(1);
        assertThat(FakeVoiceProviders.CHAT_REQUESTS).hasSize(4);
        assertThat(FakeVoiceProviders.CHAT_REQUESTS.get(1).encode()).as("the model was asked with the words")
                .contains("Okay.");
        assertThat(FakeVoiceProviders.TTS_TEXTS).doesNotContain(REFUNDS);
    }

    @Test
    void aCallListensWithDeepgramFluxWhoseTurnsOurVoiceActivityForcesToEnd() throws Exception {
        as(key).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                "llm", Map.of("provider", "openai", "api_key", "sk-voice-test", "model", "gpt-4.1-mini"),
                "stt", Map.of("provider", "deepgram", "api_key", "dg-voice-test", "model", "flux-general-en"),
                "tts", Map.of("provider", "elevenlabs", "api_key", "el-voice-test", "voice", "voice123")))))
                .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Where is my order?", "No that is all thanks."));
        FakeVoiceProviders.REPLIES.addAll(List.of(Reply.says("It ships today. Anything else?"), Reply.calls("done"),
                Reply.says("Thank you, goodbye.")));
        String url = dial();
        SimulatedCaller caller = caller().connect(url);
        caller.pauses(1_600).says("Where is my order?").pauses(2_600).says("No that is all thanks.").pauses(1_000);
        String reason = ended(caller, runOf(url));

        JsonPath run = completedRun(runOf(url));
        assertThat(reason).as("ended with %s", run.getString("gathered_context.error")).isEqualTo("end_call_node");
        assertThat(FakeVoiceProviders.VIOLATIONS).isEmpty();
        assertThat(FakeVoiceProviders.STT_QUERIES).singleElement().satisfies(q -> assertThat(q).startsWith("v2?")
                .contains("model=flux-general-en", "encoding=mulaw", "sample_rate=8000", "eot_threshold=0.7",
                        "eager_eot_threshold=0.5"));
        assertThat(FakeVoiceProviders.STT_CONTROL).filteredOn("ForceEndTurn"::equals).hasSize(2);
        assertThat(FakeVoiceProviders.STT_CONTROL).doesNotContain("KeepAlive", "Finalize").contains("CloseStream");
        assertThat(FakeVoiceProviders.STT_AUDIO_FRAMES.get()).isGreaterThan(300);
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        // the eager end's transcript answered once: the end that confirms it adds nothing
        assertThat(transcript).contains("user: Where is my order?\n", "assistant: It ships today. Anything else?\n",
                "user: No that is all thanks.\n").doesNotContain("Where is my order? Where is my order?");
        assertThat(run.getDouble("usage_info.stt.'deepgram/flux-general-en'.audio_seconds")).isGreaterThan(4.0);
    }

    @Test
    void aCallListensWithOpenAiRealtimeTranscription() throws Exception {
        as(key).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                "llm", Map.of("provider", "openai", "api_key", "sk-voice-test", "model", "gpt-4.1-mini"),
                "stt", Map.of("provider", "openai", "api_key", "sk-stt-test", "model", "gpt-4o-transcribe"),
                "tts", Map.of("provider", "elevenlabs", "api_key", "el-voice-test", "voice", "voice123")))))
                .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Where is my order?", "No that is all thanks."));
        FakeVoiceProviders.REPLIES.addAll(List.of(Reply.says("It ships today. Anything else?"), Reply.calls("done"),
                Reply.says("Thank you, goodbye.")));
        String url = dial();
        SimulatedCaller caller = caller().connect(url);
        caller.pauses(1_600).says("Where is my order?").pauses(2_600).says("No that is all thanks.").pauses(1_000);
        String reason = ended(caller, runOf(url));

        JsonPath run = completedRun(runOf(url));
        assertThat(reason).as("ended with %s", run.getString("gathered_context.error")).isEqualTo("end_call_node");
        assertThat(FakeVoiceProviders.VIOLATIONS).isEmpty();
        assertThat(FakeVoiceProviders.STT_QUERIES).containsExactly("realtime?intent=transcription");
        assertThat(FakeVoiceProviders.STT_CONTROL).startsWith("session:gpt-4o-transcribe")
                .filteredOn("Finalize"::equals).hasSize(2);
        assertThat(FakeVoiceProviders.STT_AUDIO_FRAMES.get()).as("the caller's audio, appended as it came")
                .isGreaterThan(200);
        assertThat(caller.firstAgentFrameAfter(caller.speech.get(0)[1]) - caller.speech.get(0)[1])
                .as("voice-to-voice of the answer").isBetween(200L, 2_500L);
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).contains("user: Where is my order?\n", "assistant: It ships today. Anything else?\n",
                "user: No that is all thanks.\n");
        assertThat(run.getDouble("usage_info.stt.'openai/gpt-4o-transcribe'.audio_seconds")).isGreaterThan(4.0);
    }

    /** The organization's models as a realtime configuration: OpenAI Realtime hears and speaks. */
    private void realtimeModels(String provider) {
        as(key).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "realtime", "realtime", Map.of(
                "realtime", Map.of("provider", provider, "api_key", "sk-realtime-test", "model", "gpt-realtime-2",
                        "voice", "verse"),
                "llm", Map.of("provider", "openai", "api_key", "sk-voice-test", "model", "gpt-4.1-mini")))))
                .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
    }

    @Test
    void aRealtimeCallRunsTheGraphOnOpenAiRealtimeWithToolsTransitionsAndATruncatedBargeIn() throws Exception {
        FakeToolServers api = new FakeToolServers();
        toolServers.add(api);
        workflow = workflowWithTools("Orders on a realtime model", List.of(orderStatusTool(api)));
        realtimeModels("openai_realtime");
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Where is my order?", "Tell me about returns.",
                "No that is all thanks."));
        FakeVoiceProviders.REPLIES.addAll(List.of(
                Reply.calls("order_status", "{\"order_id\": \"A-17\"}"), // the model looks the order up first
                Reply.says("Your order ships today. Is there anything else?"),
                new Reply(RETURNS + " " + REFUNDS, null, 60, null), // written at once, played for ten seconds
                Reply.calls("done"),
                Reply.says("Thank you, goodbye.")));
        String url = dial();
        long runId = runOf(url);
        SimulatedCaller caller = caller().connect(url);
        caller.pauses(3_000).says("Where is my order?").pauses(3_500).says("Tell me about returns.").pauses(3_000)
                .says("No that is all thanks.").pauses(1_000);
        String reason = ended(caller, runId);

        JsonPath run = completedRun(runId);
        assertThat(reason).as("the call ended with %s (%s)", run.getString("gathered_context.error"),
                FakeVoiceProviders.VIOLATIONS).isEqualTo("end_call_node");
        assertThat(FakeVoiceProviders.VIOLATIONS).isEmpty();
        assertThat(caller.violations).isEmpty();
        assertThat(FakeVoiceProviders.CHAT_REQUESTS).as("no text model: the realtime one answered").isEmpty();
        assertThat(FakeVoiceProviders.TTS_QUERIES).isEmpty();
        assertThat(FakeRealtimeModel.QUERIES).containsExactly("model=gpt-realtime-2");

        // the engine kept the graph: the start node's instructions and functions, then the goodbye node's
        List<io.vertx.core.json.JsonObject> sessions = FakeRealtimeModel.SESSIONS;
        assertThat(sessions.getFirst().getString("instructions")).contains("You help callers with their orders.");
        assertThat(sessions.getFirst().getJsonArray("tools").stream()
                .map(t -> ((io.vertx.core.json.JsonObject) t).getString("name")).toList())
                .contains("done", "order_status");
        assertThat(sessions.getFirst().getJsonObject("audio").getJsonObject("output").getString("voice"))
                .isEqualTo("verse");
        assertThat(sessions.getFirst().getJsonObject("audio").getJsonObject("input").getJsonObject("turn_detection")
                .getBoolean("interrupt_response")).as("the start node allows interruptions").isTrue();
        assertThat(sessions.getLast().getString("instructions")).contains("Thank the caller and say goodbye.");
        assertThat(FakeRealtimeModel.RESPONSE_REQUESTS.getFirst().getJsonObject("response").getString("instructions"))
                .as("the greeting, said word for word").startsWith("Say exactly")
                .contains("Hello, this is Acme. How can I help you?");
        assertThat(api.at("/orders/A-17")).as("the tool ran once, with the model's arguments").hasSize(1);
        assertThat(FakeRealtimeModel.FUNCTION_OUTPUTS).extracting(o -> o.getString("output"))
                .anySatisfy(o -> assertThat(o).contains("A-17"))
                .anySatisfy(o -> assertThat(o).contains("Moved to Goodbye"));
        assertThat(FakeVoiceProviders.STT_AUDIO_FRAMES.get()).as("the caller's audio, appended").isGreaterThan(300);

        // the barge-in: the carrier cleared, the model's item truncated at what was played
        assertThat(caller.clears).hasSize(1);
        assertThat(caller.clears.getFirst() - caller.speech.get(2)[0]).as("caller speech start to clear")
                .isBetween(0L, 900L);
        assertThat(FakeRealtimeModel.TRUNCATES).singleElement().satisfies(t -> {
            assertThat(t.getString("item_id")).startsWith("item_a");
            assertThat(t.getLong("audio_end_ms")).isBetween(500L, 6_000L);
        });
        List<Map<String, Object>> events = run.getList("logs.realtime_feedback_events");
        assertThat(events).as(events.toString()).extracting(e -> e.get("type")).contains("rtf-user-transcription",
                "rtf-bot-text", "rtf-interruption", "rtf-node-transition", "rtf-latency-measured", "rtf-call-ended",
                "rtf-function-call-start", "rtf-function-call-end");
        @SuppressWarnings("unchecked")
        String heard = (String) ((Map<String, Object>) events.stream().filter(e -> "rtf-interruption".equals(
                e.get("type"))).findFirst().orElseThrow().get("payload")).get("heard_text");
        assertThat(heard).as("the words played before the caller cut in").startsWith("Returns are")
                .doesNotContain("refund").satisfies(h -> assertThat(RETURNS).startsWith(h));

        // the run: the disposition, the model's tokens and audio, the transcript with the caller's words
        assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("end_call_node");
        assertThat(run.getInt("usage_info.llm.'openai_realtime/gpt-realtime-2'.total_tokens"))
                .as("every response's usage, the cancelled one's included").isGreaterThanOrEqualTo(300);
        assertThat(run.getDouble("usage_info.realtime.'openai_realtime/gpt-realtime-2'.audio_seconds"))
                .isGreaterThan(8.0);
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).startsWith("assistant: Hello, this is Acme. How can I help you?\nuser: Where is my order?\n")
                .contains("assistant: Your order ships today. Is there anything else?\n",
                        "user: Tell me about returns.\n", "assistant: " + heard + "\n", "user: No that is all thanks.\n")
                .endsWith("assistant: Thank you, goodbye.\n");
        byte[] wav = Api.download(run.getString("recording_public_url"));
        long agentLoud = 0;
        for (int i = 44; i + 3 < wav.length; i += 4) {
            agentLoud += Math.abs((short) ((wav[i + 2] & 0xFF) | wav[i + 3] << 8)) > 1_000 ? 1 : 0;
        }
        assertThat(agentLoud / 8_000.0).as("seconds of the model's speech on the right").isBetween(2.0, 15.0);
    }

    @Test
    void aRealtimeModelTheRuntimeCannotSpeakIsRefusedWhenSavedAndOneStoredBeforeEndsItsCallsWithTheReason()
            throws Exception {
        // every speech-to-speech model of the catalog talks: a model no longer in it (stored before it was dropped)
        Map<String, Object> gone = Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "realtime",
                "realtime", Map.of("realtime", Map.of("provider", "retired_realtime", "api_key", "rt-test"),
                        "llm", Map.of("provider", "openai", "api_key", "sk-voice-test"))));
        as(key).body(gone).put("/api/v1/organizations/model-configurations/v2").then().statusCode(422)
                .body("detail[0].loc", org.hamcrest.Matchers.hasItem("realtime"));
        modelConfigurations.saveOrganizationConfiguration(account.organizationId(), gone, Instant.now())
                .await().indefinitely();
        String url = dial();
        SimulatedCaller caller = caller().connect(url);
        assertThat(caller.closed.get(10, TimeUnit.SECONDS)).isEqualTo("pipeline_error");
        JsonPath run = completedRun(runOf(url));
        assertThat(run.getString("gathered_context.error")).contains("Retired_realtime", "speech-to-speech");
        assertThat(FakeRealtimeModel.QUERIES).isEmpty();
    }

    /** Twilio following the {@code <Redirect>} after a stream ended: the signed request, and the TwiML it gets. */
    private static String redirected(String url) {
        String body = "CallSid=CA1&AccountSid=" + SID + "&CallStatus=in-progress";
        String path = url.substring(url.indexOf("/api/"));
        given().contentType(ContentType.URLENC).body(body).post(path).then().statusCode(403);
        String signature = TwilioSignature.compute("twilio-auth-token-1", url,
                FormBody.parse(body));
        return given().contentType(ContentType.URLENC).header("X-Twilio-Signature", signature).body(body).post(path)
                .then().statusCode(200).contentType("text/xml").extract().asString();
    }

    private static String first(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        assertThat(m.find()).as(text).isTrue();
        return m.group(1);
    }

    @Test
    void aCallLetGoByADrainingReplicaAndThenLostIsStreamedAgainEachTimeAndGoesOnFromItsLastTurn() throws Exception {
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Where is my order?", "No that is all thanks."));
        FakeVoiceProviders.REPLIES.addAll(List.of(Reply.says("It ships today. Anything else?"), Reply.calls("done"),
                Reply.says("Thank you, goodbye.")));
        FakeProviderServer.REQUESTS.clear();
        as(key).body(Map.of("workflow_id", workflow, "phone_number", "+442071838750"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200);
        String twiml = FormBody.first(FormBody.parse(FakeProviderServer.REQUESTS.getFirst().body()), "Twiml");
        Pattern redirect = Pattern.compile("<Redirect method=\"POST\">([^<]+)</Redirect>");
        String resume = first(redirect, twiml);
        String url = first(STREAM, twiml);
        long runId = runOf(url);
        assertThat(resume).endsWith("/api/v1/telephony/twilio/resume/" + runId);

        // the first replica: the greeting and one answered turn, then it drains and lets the call go
        SimulatedCaller first = caller().resumable().connect(url);
        first.pauses(1_600).says("Where is my order?").pauses(5_000);
        Thread.sleep(1_600 + Speech.mulaw("Where is my order?").length / 8 + 2_500);
        assertThat(FakeVoiceProviders.TTS_TEXTS).contains("It ships today.", "Anything else?");
        sessions.handOverAll();
        assertThat(first.closed.get(5, TimeUnit.SECONDS)).isEqualTo("handed_over");
        assertThat(run(runId).getBoolean("is_completed")).as("a call let go is not over").isFalse();

        // Twilio follows the redirect and streams the call again; the connection then breaks (no stop message)
        String again = redirected(resume);
        assertThat(first(redirect, again)).as("streamed again, resumable again").isEqualTo(resume);
        SimulatedCaller second = caller().resumable().connect(first(STREAM, again));
        second.pauses(2_000);
        for (int i = 0; i < 40 && !FakeVoiceProviders.TTS_TEXTS.contains("Sorry about that. Where were we?"); i++) {
            Thread.sleep(100);
        }
        Thread.sleep(1_000);
        assertThat(FakeVoiceProviders.TTS_TEXTS).as("the caller is told the call goes on")
                .containsSubsequence("Anything else?", "Sorry about that. Where were we?");
        second.drop();
        Thread.sleep(500);
        assertThat(run(runId).getBoolean("is_completed")).as("a lost stream is not a hang-up").isFalse();

        // and again: the third stream finishes the call
        SimulatedCaller third = caller().resumable().connect(first(STREAM, redirected(resume)));
        third.pauses(2_500).says("No that is all thanks.").pauses(1_000);
        String reason = ended(third, runId);
        JsonPath run = completedRun(runId);
        assertThat(reason).as("ended with %s", run.getString("gathered_context.error")).isEqualTo("end_call_node");
        assertThat(FakeVoiceProviders.VIOLATIONS).isEmpty();
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).startsWith("assistant: Hello, this is Acme. How can I help you?\nuser: Where is my order?\n"
                + "assistant: It ships today. Anything else?\n").contains("user: No that is all thanks.\n")
                .endsWith("assistant: Thank you, goodbye.\n");
        List<Map<String, Object>> events = run.getList("logs.realtime_feedback_events");
        assertThat(events).extracting(e -> e.get("type")).containsSubsequence("rtf-user-transcription",
                "rtf-call-moved", "rtf-call-resumed", "rtf-call-moved", "rtf-call-resumed", "rtf-user-transcription",
                "rtf-call-ended");
        assertThat(events).filteredOn(e -> "rtf-call-ended".equals(e.get("type"))).hasSize(1);
        assertThat(run.getDouble("usage_info.call_duration_seconds")).as("from the first connection")
                .isGreaterThan(9.0);
        assertThat(run.getDouble("usage_info.stt.'deepgram/nova-3-general'.audio_seconds"))
                .as("the audio heard on every replica").isGreaterThan(8.0);
        assertThat(run.getInt("usage_info.llm.'openai/gpt-4.1-mini'.total_tokens")).isEqualTo(180);
        // the call is over: Twilio's redirect now hangs up
        assertThat(redirected(resume)).contains("<Hangup/>").doesNotContain("<Stream");
    }

    @Test
    void twiliosAsynchronousAmdSayingMachineLeavesTheMessageWithoutAskingTheModel() throws Exception {
        as(key).body(Map.of("name", "Twilio", "config", Map.of("provider", "twilio", "account_sid", SID,
                "auth_token", "twilio-auth-token-1", "amd_enabled", true)))
                .put("/api/v1/organizations/telephony-configs/" + twilioConfig).then().statusCode(200);
        String message = "Hi, this is Acme about your order. Please call us back.";
        as(key).body(Map.of("workflow_configurations", Map.of("voicemail_detection", Map.of("enabled", true,
                "action", "leave_message", "message", message)))).put("/api/v1/workflow/" + workflow).then()
                .statusCode(200);
        String greeting = "Hi, you have reached John. Please leave a message after the tone.";
        FakeVoiceProviders.CALLER_LINES.add(greeting);
        String url = dial();
        long runId = runOf(url);
        Map<String, List<String>> dialed = FormBody.parse(FakeProviderServer.REQUESTS.getFirst().body());
        String callback = "http://localhost:8081/api/v1/telephony/twilio/amd/" + runId;
        assertThat(FormBody.first(dialed, "MachineDetection")).isEqualTo("DetectMessageEnd");
        assertThat(FormBody.first(dialed, "AsyncAmd")).as("the stream starts at once").isEqualTo("true");
        assertThat(FormBody.first(dialed, "AsyncAmdStatusCallback")).isEqualTo(callback);

        SimulatedCaller caller = caller().connect(url);
        caller.pauses(1_600).says(greeting).pauses(4_000);
        Thread.sleep(2_500); // the greeting is playing when Twilio's detection reports
        String body = "CallSid=CA1&AccountSid=" + SID + "&AnsweredBy=machine_end_beep&MachineDetectionDuration=2400";
        given().contentType(ContentType.URLENC).body(body).post("/api/v1/telephony/twilio/amd/" + runId).then()
                .statusCode(403);
        given().contentType(ContentType.URLENC).header("X-Twilio-Signature",
                        TwilioSignature.compute("twilio-auth-token-1",
                                callback, FormBody.parse(body))).body(body)
                .post("/api/v1/telephony/twilio/amd/" + runId).then().statusCode(200)
                .body("answered_by", org.hamcrest.Matchers.equalTo("machine_after_greeting"));
        String reason = ended(caller, runId);

        JsonPath run = completedRun(runId);
        assertThat(reason).as("ended with %s", run.getString("gathered_context.error"))
                .isEqualTo("voicemail_detected");
        assertThat(FakeVoiceProviders.CLASSIFIER_REQUESTS).as("the carrier decided: the model was not asked")
                .isEmpty();
        assertThat(FakeVoiceProviders.CHAT_REQUESTS).isEmpty();
        assertThat(FakeVoiceProviders.TTS_TEXTS).containsSequence("Hi, this is Acme about your order.",
                "Please call us back.");
        long messageBegan = caller.agentFrames.get(caller.agentFrames.size() - 25);
        assertThat(messageBegan).as("left after the greeting").isGreaterThan(caller.speech.get(0)[1]);
        List<Map<String, Object>> events = run.getList("logs.realtime_feedback_events");
        assertThat(events).anySatisfy(e -> {
            assertThat(e.get("type")).isEqualTo("rtf-voicemail-detected");
            assertThat(String.valueOf(e.get("payload"))).contains("carrier_amd");
        });
        assertThat(events).extracting(e -> e.get("type")).contains("rtf-carrier-amd");
    }

    @Test
    void aMachineTwilioDetectedOnAWorkflowThatDoesNotDetectVoicemailStillMakesTheOutcomeVoicemail() throws Exception {
        as(key).body(Map.of("name", "Twilio", "config", Map.of("provider", "twilio", "account_sid", SID,
                "auth_token", "twilio-auth-token-1", "amd_enabled", true)))
                .put("/api/v1/organizations/telephony-configs/" + twilioConfig).then().statusCode(200);
        FakeVoiceProviders.REPLIES.add(Reply.says("Hello?"));
        String url = dial();
        long runId = runOf(url);
        SimulatedCaller caller = caller().connect(url);
        caller.pauses(3_000);
        String callback = "http://localhost:8081/api/v1/telephony/twilio/amd/" + runId;
        String body = "CallSid=CA1&AccountSid=" + SID + "&AnsweredBy=machine_start";
        given().contentType(ContentType.URLENC).header("X-Twilio-Signature",
                        TwilioSignature.compute("twilio-auth-token-1",
                                callback, FormBody.parse(body))).body(body)
                .post("/api/v1/telephony/twilio/amd/" + runId).then().statusCode(200);
        Thread.sleep(1_000);
        caller.hangUp();
        caller.closed.get(10, TimeUnit.SECONDS);
        JsonPath run = completedRun(runId);
        for (int i = 0; i < 30 && !"voicemail".equals(run.getString("gathered_context.mapped_call_disposition")); i++) {
            Thread.sleep(100);
            run = run(runId);
        }
        List<Map<String, Object>> events = run.getList("logs.realtime_feedback_events");
        assertThat(events).extracting(e -> e.get("type")).as("the agent talked on").contains("rtf-carrier-amd")
                .doesNotContain("rtf-voicemail-detected");
        assertThat(run.getString("gathered_context.mapped_call_disposition"))
                .as("the call's outcome, as retry_on_voicemail sees it").isEqualTo("voicemail");
    }

    @Test
    void aVoicemailIsDetectedItsMessageLeftAndTheCallsOutcomeIsVoicemail() throws Exception {
        String message = "Hi, this is Acme about your order. Please call us back.";
        Map<String, Object> voicemail = Map.of("enabled", true, "action", "leave_message", "message", message);
        as(key).body(Map.of("workflow_configurations", Map.of("voicemail_detection", Map.of("enabled", true,
                "action", "leave_message")))).put("/api/v1/workflow/" + workflow).then().statusCode(400)
                .body("detail", org.hamcrest.Matchers.containsString("message to leave"));
        as(key).body(Map.of("workflow_configurations", Map.of("voicemail_detection", voicemail)))
                .put("/api/v1/workflow/" + workflow).then().statusCode(200);
        String greeting = "Hi, you have reached John. Please leave a message after the tone.";
        FakeVoiceProviders.CALLER_LINES.add(greeting);
        FakeVoiceProviders.VERDICTS.add("VOICEMAIL");
        String url = dial();
        SimulatedCaller caller = caller().connect(url);
        caller.pauses(1_600).says(greeting).pauses(4_000);
        String reason = ended(caller, runOf(url));

        JsonPath run = completedRun(runOf(url));
        assertThat(reason).as("ended with %s", run.getString("gathered_context.error"))
                .isEqualTo("voicemail_detected");
        assertThat(FakeVoiceProviders.VIOLATIONS).isEmpty();
        assertThat(FakeVoiceProviders.CLASSIFIER_REQUESTS).singleElement().satisfies(q -> assertThat(q.encode())
                .contains(greeting));
        assertThat(FakeVoiceProviders.CHAT_REQUESTS).as("the greeting was never answered").isEmpty();
        assertThat(FakeVoiceProviders.TTS_TEXTS).containsSequence(
                "Hi, this is Acme about your order.", "Please call us back.");
        // the message (ten words, 30 frames at the fake voice) played to its end: no clear once it began
        long messageBegan = caller.agentFrames.get(caller.agentFrames.size() - 25);
        assertThat(caller.clears).allSatisfy(clear -> assertThat(clear).isLessThan(messageBegan));
        for (int i = 0; i < 30 && !"voicemail".equals(run.getString("gathered_context.mapped_call_disposition")); i++) {
            Thread.sleep(100);
            run = run(runOf(url));
        }
        assertThat(run.getString("gathered_context.mapped_call_disposition"))
                .as("the call's outcome, as a campaign's retry_on_voicemail sees it").isEqualTo("voicemail");
        assertThat(run.getList("gathered_context.call_tags", String.class)).contains("voicemail_detected",
                "telephony_voicemail").doesNotContain("not_connected");
        assertThat(run.getDouble("usage_info.call_duration_seconds")).as("the call's length, kept").isGreaterThan(5.0);
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).contains("user: " + greeting + "\n").endsWith("assistant: " + message + "\n");
    }

    /** How the call ended; when it did not, the caller hangs up and the run's events say where it stood. */
    private String ended(SimulatedCaller caller, long runId) throws Exception {
        return calls.ended(caller, workflow, runId, 30);
    }

    @Test
    void aToolRunsDuringACallWithTheModelsStreamedArgumentsAndTheAnswerAfterItIsSpoken() throws Exception {
        try (FakeToolServers api = new FakeToolServers()) {
            workflow = workflowWithTools("Orders with a tool", List.of(orderStatusTool(api)));
            FakeVoiceProviders.CALLER_LINES.add("Where is order A-17?");
            FakeVoiceProviders.REPLIES.addAll(List.of(Reply.calls("order_status", "{\"order_id\": \"A-17\"}"),
                    Reply.says("It shipped yesterday.")));
            String url = dial();
            SimulatedCaller caller = caller().connect(url);
            caller.pauses(1_600).says("Where is order A-17?").pauses(3_000);
            Thread.sleep(1_600 + Speech.mulaw("Where is order A-17?").length / 8 + 2_800);
            caller.hangUp();
            caller.closed.get(10, TimeUnit.SECONDS);

            assertThat(api.at("/orders/A-17")).hasSize(1);
            assertThat(FakeVoiceProviders.TTS_TEXTS).contains("It shipped yesterday.");
            JsonPath run = completedRun(runOf(url));
            List<Map<String, Object>> events = run.getList("logs.realtime_feedback_events");
            assertThat(events).filteredOn(e -> "rtf-function-call-end".equals(e.get("type"))).singleElement()
                    .satisfies(e -> assertThat(String.valueOf(e.get("payload"))).contains("order_status", "shipped"));
            assertThat(run.getInt("usage_info.llm.'openai/gpt-4.1-mini'.total_tokens")).isEqualTo(120);
        }
    }

    @Test
    void aModelThatFailsMidCallIsHeardAsTheFallbackLineAndTheRunEndsWithTheReason() throws Exception {
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Where is my order?", "And my refund?"));
        FakeVoiceProviders.REPLIES.add(Reply.says("Your order ships today.")); // the second question: HTTP 500
        String url = dial();
        SimulatedCaller caller = caller().connect(url);
        caller.pauses(1_600).says("Where is my order?").pauses(2_600).says("And my refund?").pauses(8_000);
        String reason = ended(caller, runOf(url));

        assertThat(reason).isEqualTo("pipeline_error");
        assertThat(FakeVoiceProviders.TTS_TEXTS).as("the caller heard the fallback line, not silence")
                .endsWith("I'm sorry, I'm having trouble right now. Please call back later.");
        long afterQuestion = caller.agentFramesBetween(caller.speech.get(1)[1], Long.MAX_VALUE);
        assertThat(afterQuestion * 20).as("ms of the fallback line played before the hang-up").isGreaterThan(500);
        JsonPath run = completedRun(runOf(url));
        assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("pipeline_error");
        assertThat(run.getString("gathered_context.error")).contains("language model").contains("no scripted reply");
        List<Map<String, Object>> events = run.getList("logs.realtime_feedback_events");
        assertThat(events).extracting(e -> e.get("type")).contains("rtf-pipeline-error", "rtf-call-ended");
        assertThat(payloads(events, "rtf-pipeline-error")).anySatisfy(p -> {
            assertThat((String) p.get("error")).contains("language model");
            assertThat(p).containsEntry("fatal", true);
        });
    }

    private static List<Map<String, Object>> payloads(List<Map<String, Object>> events, String type) {
        return TwilioCalls.payloads(events, type);
    }

    /** The workflow again, its start node with these tools. */
    private long workflowWithTools(String name, List<String> toolUuids) {
        return as(key).body(Map.of("name", name, "workflow_definition", definitionWithTools(toolUuids)))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
    }

    /** {@link #definition()} with these tools on its start node. */
    static Map<String, Object> definitionWithTools(List<String> toolUuids) {
        Map<String, Object> definition = new LinkedHashMap<>(definition());
        List<Map<String, Object>> nodes = new ArrayList<>();
        for (Object node : (List<?>) definition.get("nodes")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> n = new LinkedHashMap<>((Map<String, Object>) node);
            if ("start".equals(n.get("id"))) {
                @SuppressWarnings("unchecked")
                Map<String, Object> data = new LinkedHashMap<>((Map<String, Object>) n.get("data"));
                data.put("tool_uuids", toolUuids);
                n.put("data", data);
            }
            nodes.add(n);
        }
        definition.put("nodes", nodes);
        return definition;
    }

    @Test
    void aTransferSaysItsLineThenTwilioDialsTheDestinationAndARefusedTransferEndsTheCallWithTheReason()
            throws Exception {
        Map<String, Object> tool = Map.of("schema_version", 1, "type", "transfer_call", "config", Map.of(
                "destination", "+14155550199", "messageType", "custom", "customMessage", "Connecting you now.",
                "timeout", 20, "whisper_message", "A caller about order A-17 & its refund."));
        String sales = as(key).body(Map.of("name", "Sales desk", "category", "transfer_call", "definition", tool))
                .post("/api/v1/tools/").then().statusCode(200).extract().path("tool_uuid");
        workflow = workflowWithTools("Orders with a transfer", List.of(sales));
        for (int status : new int[] {200, 404}) {
            FakeVoiceProviders.reset();
            FakeVoiceProviders.CALLER_LINES.add("Put me through to sales.");
            FakeVoiceProviders.REPLIES.add(Reply.calls("sales_desk"));
            String url = dial();
            String callSid = FakeProviderServer.lastSid;
            SimulatedCaller caller = caller().connect(url);
            caller.pauses(1_600).says("Put me through to sales.").pauses(4_000);
            FakeProviderServer.status = status; // Twilio's answer to the transfer
            String reason = caller.closed.get(20, TimeUnit.SECONDS);
            FakeProviderServer.status = 201;

            // the caller heard the line first; then the call was redirected to <Dial> through Twilio's API
            assertThat(FakeVoiceProviders.TTS_TEXTS).contains("Connecting you now.");
            List<FakeProviderServer.Received> updates = FakeProviderServer.REQUESTS.stream()
                    .filter(r -> r.path().equals("/2010-04-01/Accounts/" + SID + "/Calls/" + callSid + ".json"))
                    .toList();
            assertThat(updates).as("the transfer, nothing else").hasSize(1);
            String twiml = FormBody.first(FormBody.parse(updates.getFirst().body()), "Twiml");
            long runId = runOf(url);
            String whisper = "http://localhost:8081/api/v1/telephony/twilio/whisper/" + runId
                    + "?say=A+caller+about+order+A-17+%26+its+refund.";
            assertThat(twiml).isEqualTo("<Response><Dial timeout=\"20\" answerOnBridge=\"true\"><Number url=\""
                    + whisper.replace("&", "&amp;") + "\">+14155550199</Number></Dial></Response>");
            // when the person answers, Twilio fetches the whisper (signed, as its other requests) and plays it to them
            String body = "CallSid=CA2&AccountSid=" + SID;
            String path = whisper.substring(whisper.indexOf("/api/"));
            given().urlEncodingEnabled(false).contentType(ContentType.URLENC).body(body).post(path).then()
                    .statusCode(403);
            given().urlEncodingEnabled(false).contentType(ContentType.URLENC).header("X-Twilio-Signature",
                            TwilioSignature.compute("twilio-auth-token-1",
                                    whisper, FormBody.parse(body))).body(body).post(path).then().statusCode(200)
                    .body(org.hamcrest.Matchers.endsWith("<Response><Say>A caller about order A-17 &amp; its refund."
                            + "</Say></Response>"));
            JsonPath run = completedRun(runOf(url));
            if (status == 200) {
                assertThat(reason).isEqualTo("transfer_call");
                assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("transfer_call");
            } else {
                assertThat(reason).isEqualTo("transfer_call_failed");
                assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("transfer_call_failed");
                assertThat(run.getString("gathered_context.error")).startsWith("The call could not be transferred:")
                        .contains("Twilio answered HTTP 404");
            }
        }
    }

    @Test
    void aTransfersDestinationMappedFromTheCallsContextIsDialledAndOneThatMapsNowhereFailsWithTheReason()
            throws Exception {
        Map<String, Object> mapping = Map.of("rules", List.of(Map.of("context_path", "initial_context.phone_number",
                "routes", List.of(Map.of("context_value", "+442071838750", "destination", "+14155550177")))));
        Map<String, Object> tool = Map.of("schema_version", 1, "type", "transfer_call", "config", Map.of(
                "destination_source", "context_mapping", "context_mapping", mapping, "timeout", 20));
        String desk = as(key).body(Map.of("name", "Regional desk", "category", "transfer_call", "definition", tool))
                .post("/api/v1/tools/").then().statusCode(200).extract().path("tool_uuid");
        workflow = workflowWithTools("Orders with a mapped transfer", List.of(desk));
        FakeVoiceProviders.CALLER_LINES.add("Put me through please.");
        FakeVoiceProviders.REPLIES.add(Reply.calls("regional_desk"));
        String url = dial();
        String callSid = FakeProviderServer.lastSid;
        SimulatedCaller caller = caller().connect(url);
        caller.pauses(1_600).says("Put me through please.").pauses(4_000);
        assertThat(caller.closed.get(20, TimeUnit.SECONDS)).isEqualTo("transfer_call");
        String twiml = FormBody.first(FormBody.parse(FakeProviderServer.REQUESTS.stream()
                .filter(r -> r.path().equals("/2010-04-01/Accounts/" + SID + "/Calls/" + callSid + ".json"))
                .findFirst().orElseThrow().body()), "Twiml");
        assertThat(twiml).contains("<Number>+14155550177</Number>");

        // a caller whose context maps nowhere: the transfer fails with the mapping's reason, no Twilio update
        Map<String, Object> nowhere = Map.of("schema_version", 1, "type", "transfer_call", "config", Map.of(
                "destination_source", "context_mapping", "context_mapping", Map.of("rules", List.of(Map.of(
                        "context_path", "department", "routes", List.of(Map.of("context_value", "sales",
                                "destination", "+14155550188"))))), "timeout", 20));
        String lost = as(key).body(Map.of("name", "Department desk", "category", "transfer_call", "definition",
                nowhere)).post("/api/v1/tools/").then().statusCode(200).extract().path("tool_uuid");
        workflow = workflowWithTools("Orders with an unmapped transfer", List.of(lost));
        FakeVoiceProviders.reset();
        FakeVoiceProviders.CALLER_LINES.add("Put me through please.");
        FakeVoiceProviders.REPLIES.add(Reply.calls("department_desk"));
        String second = dial();
        SimulatedCaller other = caller().connect(second);
        other.pauses(1_600).says("Put me through please.").pauses(4_000);
        assertThat(other.closed.get(20, TimeUnit.SECONDS)).isEqualTo("transfer_call_failed");
        JsonPath run = completedRun(runOf(second));
        assertThat(run.getString("gathered_context.error")).contains("No destination mapping matched context paths"
                + " 'department'");
    }

    @Test
    void aDynamicTransferAsksItsResolverWithTheModelsArgumentsSaysItsMessageAndDialsWhatItAnswers()
            throws Exception {
        FakeToolServers api = new FakeToolServers();
        toolServers.add(api);
        Map<String, Object> tool = Map.of("schema_version", 1, "type", "transfer_call", "config", Map.of(
                "destination_source", "dynamic", "timeout", 20, "messageType", "custom", "customMessage",
                "One moment.", "parameters", List.of(
                        Map.of("name", "department", "type", "string", "description", "Which desk", "required", true),
                        Map.of("name", "region", "type", "string", "description", "Where the caller is")),
                "resolver", Map.of("url", api.base + "/route", "timeout_ms", 2_000)));
        String desk = as(key).body(Map.of("name", "Any desk", "category", "transfer_call", "definition", tool))
                .post("/api/v1/tools/").then().statusCode(200).extract().path("tool_uuid");
        workflow = workflowWithTools("Orders with a resolved transfer", List.of(desk));
        FakeVoiceProviders.CALLER_LINES.add("Sales please, I am in Europe.");
        FakeVoiceProviders.REPLIES.add(Reply.calls("any_desk", "{\"department\": \"sales\", \"region\": \"EU\"}"));
        String url = dial();
        String callSid = FakeProviderServer.lastSid;
        SimulatedCaller caller = caller().connect(url);
        caller.pauses(1_600).says("Sales please, I am in Europe.").pauses(4_000);
        assertThat(caller.closed.get(20, TimeUnit.SECONDS)).isEqualTo("transfer_call");

        assertThat(api.at("/route")).singleElement().satisfies(r -> {
            assertThat(r.method()).isEqualTo("POST");
            assertThat(r.body()).contains("\"department\"", "\"sales\"", "\"region\"", "\"EU\"");
        });
        assertThat(FakeVoiceProviders.TTS_TEXTS).as("the resolver's message instead of the tool's")
                .contains("Putting you through to EU sales.").doesNotContain("One moment.");
        String twiml = FormBody.first(FormBody.parse(FakeProviderServer.REQUESTS.stream()
                .filter(r -> r.path().equals("/2010-04-01/Accounts/" + SID + "/Calls/" + callSid + ".json"))
                .findFirst().orElseThrow().body()), "Twiml");
        assertThat(twiml).contains("<Number>+14155550166</Number>");
    }

    @Test
    void aMediaSocketIsRefusedBeforeTheUpgradeForABadTokenAnotherOrganizationOrASecondSocket() throws Exception {
        FakeVoiceProviders.REPLIES.add(Reply.says("Hello."));
        String url = dial();
        long runId = runOf(url);
        String token = url.substring(url.lastIndexOf('/') + 1);

        assertThat(refusal(url.substring(0, url.lastIndexOf('/') + 1) + "0".repeat(64))).isEqualTo(403);
        assertThat(refusal(url.substring(0, url.lastIndexOf('/') + 1) + token.substring(1) + "0")).isEqualTo(403);

        // another organization's address for this run, properly signed: still not its run
        Api.Account otherAccount = Api.signUp("voice-other");
        String other = Api.createKey(otherAccount, "k");
        long otherWorkflow = as(other).body(Map.of("name", "Theirs", "workflow_definition", definition()))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        long otherOrganization = otherAccount.organizationId();
        assertThat(refusal(runtime.streamUrl(otherOrganization, otherWorkflow, runId).orElseThrow())).isEqualTo(404);

        SimulatedCaller first = caller().connect(url);
        assertThat(refusal(url)).as("a second socket for a live run").isEqualTo(409);
        first.hangUp();
        first.closed.get(10, TimeUnit.SECONDS);
        JsonPath run = completedRun(runId);
        assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("user_hangup");
        assertThat(refusal(url)).as("a completed run").isEqualTo(409);
    }

    @Test
    void aProviderTheRuntimeCannotUseEndsTheCallWithTheReasonOnTheRun() throws Exception {
        Map<String, Object> pipeline = Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline",
                "pipeline", Map.of("llm", Map.of("provider", "openai", "api_key", "sk-voice-test"),
                        "stt", Map.of("provider", "huggingface", "api_key", "hf_voice-test"),
                        "tts", Map.of("provider", "elevenlabs", "api_key", "el-voice-test"))));
        // refused when saved; one stored before that check existed still reaches a call, which ends with the reason
        as(key).body(pipeline).put("/api/v1/organizations/model-configurations/v2").then().statusCode(422);
        modelConfigurations.saveOrganizationConfiguration(account.organizationId(), pipeline, Instant.now())
                .await().indefinitely();
        String url = dial();
        SimulatedCaller caller = caller().connect(url);
        assertThat(caller.closed.get(10, TimeUnit.SECONDS)).isEqualTo("pipeline_error");
        JsonPath run = completedRun(runOf(url));
        assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("pipeline_error");
        assertThat(run.getString("gathered_context.error")).contains("Hugging Face", "cannot listen on a call");
    }

    /** The HTTP status a media socket's upgrade is refused with (0 when it is accepted). */
    private int refusal(String url) throws Exception {
        SimulatedCaller probe = caller();
        try {
            probe.connect(url);
            return 0;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UpgradeRejectedException rejected) {
                return rejected.getStatus();
            }
            throw e;
        }
    }
}
