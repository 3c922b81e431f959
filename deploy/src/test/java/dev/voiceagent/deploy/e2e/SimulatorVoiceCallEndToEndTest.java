package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.domain.audio.Wav;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The laptop's talking call, with no provider and no key: the simulator telephony provider connects the call to the
 * media route as Twilio would and its callee says the rule's lines in FreeTTS's voice; the simulator speech-to-text
 * (an oracle that knows the callee's lines), the simulator language model and the simulator text-to-speech (FreeTTS)
 * answer. Everything runs in this service, through the same ports as the real providers.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class SimulatorVoiceCallEndToEndTest {

    private static final String FIRST = "Hi, I have a question.";
    private static final String SECOND = "Please book a cleaning on Tuesday.";

    private String key;
    private long workflow;

    private static RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    @BeforeEach
    void setUp() {
        key = Api.createKey(Api.signUp("simulated-voice"), "k");
        simulatorModels(key);
        workflow = as(key).body(Map.of("name", "Dental", "workflow_definition", dentalAgent()))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
    }

    /** The organization's models: the simulator's recognizer, language model and voice (no provider, no key). */
    static void simulatorModels(String apiKey) {
        as(apiKey).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                "llm", Map.of("provider", "simulator"), "stt", Map.of("provider", "simulator"),
                "tts", Map.of("provider", "simulator")))))
                .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
    }

    /** A dental practice's agent: a greeting, interruptible, and an end node reached by booking a cleaning. */
    static Map<String, Object> dentalAgent() {
        Map<String, Object> start = new LinkedHashMap<>();
        start.put("name", "Start");
        start.put("prompt", "Acme Dental looks after the teeth of the whole family, from the first check-up to"
                + " implants, six days a week in the middle of town. Ask how to help.");
        start.put("greeting", "Hello, this is Acme Dental. How can I help?");
        start.put("greeting_type", "text");
        start.put("allow_interrupt", true);
        return Map.of(
                "nodes", List.of(
                        Map.of("id", "start", "type", "startCall", "position", Map.of("x", 0, "y", 0), "data", start),
                        Map.of("id", "end", "type", "endCall", "position", Map.of("x", 0, "y", 200), "data",
                                Map.of("name", "Booked", "prompt", "Your cleaning is booked for Tuesday. Goodbye."))),
                "edges", List.of(Map.of("id", "e1", "source", "start", "target", "end", "data",
                        Map.of("label", "Book", "condition", "book a cleaning on Tuesday"))));
    }

    private final String address = "+1555" + (1_000_000 + (long) (Math.random() * 8_999_999));

    private long telephony(Map<String, Object> rule) {
        long config = as(key).body(Map.of("name", "Laptop", "config", Map.of("provider", "simulator",
                "ring_delay_ms", 100, "rules", List.of(rule)))).post("/api/v1/organizations/telephony-configs")
                .then().statusCode(200).extract().jsonPath().getLong("id");
        as(key).body(Map.of("address", address, "inbound_workflow_id", workflow))
                .post("/api/v1/organizations/telephony-configs/" + config + "/phone-numbers").then().statusCode(200);
        return config;
    }

    @Test
    void anInboundSimulatedCallTalksWithTheLinesOfTheCallersNumber() throws Exception {
        telephony(Map.of("suffix", "999", "outcome", "completed", "lines", List.of(SECOND)));
        long runId = as(key).body(Map.of("to", address, "from", "+15550100999"))
                .post("/api/v1/telephony/simulator/inbound-call").then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");

        JsonPath run = completedRun(runId);
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).isEqualTo("assistant: Hello, this is Acme Dental. How can I help?\nuser: " + SECOND
                + "\nassistant: Your cleaning is booked for Tuesday.\n");
        assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("end_call_node");
    }

    private JsonPath completedRun(long runId) throws InterruptedException {
        for (int i = 0; i < 600; i++) {
            JsonPath run = as(key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then().statusCode(200)
                    .extract().jsonPath();
            if (run.getBoolean("is_completed") && run.get("usage_info.call_duration_seconds") != null
                    && run.get("recording_url") != null) {
                return run;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("run " + runId + " never completed: " + as(key).get("/api/v1/workflow/" + workflow
                + "/runs/" + runId).asString());
    }

    @Test
    void aSimulatedCallTalksItsCalleeInterruptsTheAgentMovesOnAndTheCallLeavesATranscriptAndARecording()
            throws Exception {
        telephony(Map.of("suffix", "", "outcome", "completed", "lines", List.of(FIRST, SECOND), "pause_ms", 400,
                "interrupt_line", 2, "interrupt_after_ms", 900));
        long runId = as(key).body(Map.of("workflow_id", workflow, "phone_number", "+15550100123"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");

        JsonPath run = completedRun(runId);
        List<Map<String, Object>> events = run.getList("logs.realtime_feedback_events");
        assertThat(run.getString("gathered_context.call_disposition")).as("events: %s", events)
                .isEqualTo("end_call_node");
        assertThat(events).extracting(e -> e.get("type")).contains("rtf-user-transcription", "rtf-bot-text",
                "rtf-interruption", "rtf-node-transition", "rtf-call-ended");
        // the oracle heard each of the callee's lines, in order
        assertThat(events).filteredOn(e -> "rtf-user-transcription".equals(e.get("type")))
                .extracting(e -> String.valueOf(((Map<?, ?>) e.get("payload")).get("text")))
                .containsExactly(FIRST, SECOND);

        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).startsWith("assistant: Hello, this is Acme Dental. How can I help?\nuser: " + FIRST
                + "\n").contains("user: " + SECOND + "\n").endsWith("assistant: Your cleaning is booked for Tuesday."
                + "\n").doesNotContain("six days a week"); // the answer the callee cut short was not heard in full

        assertThat(run.getDouble("usage_info.call_duration_seconds")).isBetween(5.0, 60.0);
        assertThat(run.getDouble("usage_info.stt.'simulator/simulator'.audio_seconds")).isGreaterThan(3.0);
        assertThat(run.getInt("usage_info.tts.'simulator/simulator'.characters")).isGreaterThan(60);

        byte[] wav = Api.download(run.getString("recording_public_url"));
        ByteBuffer header = ByteBuffer.wrap(wav, 0, 44).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(header.getShort(22)).as("channels").isEqualTo((short) 2);
        long callerLoud = 0;
        long agentLoud = 0;
        for (int i = 44; i + 3 < wav.length; i += 4) {
            callerLoud += Math.abs((short) ((wav[i] & 0xFF) | wav[i + 1] << 8)) > 1_000 ? 1 : 0;
            agentLoud += Math.abs((short) ((wav[i + 2] & 0xFF) | wav[i + 3] << 8)) > 1_000 ? 1 : 0;
        }
        assertThat(callerLoud / 8_000.0).as("seconds of the callee's speech on the left").isBetween(0.5, 8.0);
        assertThat(agentLoud / 8_000.0).as("seconds of the agent's speech on the right").isBetween(1.0, 15.0);
    }

    /** A WAV of 16-bit PCM at 16 kHz: {@code ms} of a loud 440 Hz tone (a recorded greeting stand-in). */
    static byte[] toneWav(int ms) {
        int n = 16 * ms;
        ByteBuffer b = ByteBuffer.allocate(44 + 2 * n).order(ByteOrder.LITTLE_ENDIAN);
        b.put(Wav.header(1, 16_000, 2L * n));
        for (int i = 0; i < n; i++) {
            b.putShort((short) (10_000 * Math.sin(2 * Math.PI * 440 * i / 16_000.0)));
        }
        return b.array();
    }

    @Test
    void aPreRecordedGreetingPlaysTheOrganizationsRecordingAndTheTranscriptSaysWhatItSays() throws Exception {
        byte[] wav = toneWav(1_500);
        Map<String, Object> item = as(key).body(Map.of("files", List.of(Map.of("filename", "welcome.wav",
                "mime_type", "audio/wav", "file_size", wav.length)))).post("/api/v1/workflow-recordings/upload-url")
                .then().statusCode(200).extract().jsonPath().getMap("items[0]");
        given().urlEncodingEnabled(false).contentType("audio/wav").body(wav).put((String) item.get("upload_url"))
                .then().statusCode(200);
        as(key).body(Map.of("recordings", List.of(Map.of("recording_id", item.get("recording_id"),
                "storage_key", item.get("storage_key"), "transcript", "Welcome to Acme Dental."))))
                .post("/api/v1/workflow-recordings/").then().statusCode(200);
        Map<String, Object> start = new LinkedHashMap<>();
        start.put("name", "Start");
        start.put("prompt", "Acme Dental looks after your teeth. Ask how to help.");
        start.put("greeting_type", "audio");
        start.put("greeting_recording_id", item.get("recording_id"));
        start.put("allow_interrupt", true);
        workflow = as(key).body(Map.of("name", "Recorded", "workflow_definition", Map.of(
                "nodes", List.of(Map.of("id", "start", "type", "startCall", "position", Map.of("x", 0, "y", 0),
                        "data", start)), "edges", List.of())))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        telephony(Map.of("suffix", "", "outcome", "completed", "lines", List.of(SECOND)));
        long runId = as(key).body(Map.of("workflow_id", workflow, "phone_number", "+15550100123"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");

        JsonPath run = completedRun(runId);
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).startsWith("assistant: Welcome to Acme Dental.\nuser: " + SECOND + "\n");
        assertThat(run.getInt("usage_info.tts.'simulator/simulator'.characters"))
                .as("the greeting was not synthesized: only the simulator model's answer to the caller was")
                .isEqualTo(("I heard: " + SECOND).length() + "Acme Dental looks after your teeth.".length()); // 2 sentences
        // the agent's side opens with the recording: a steady tone, resampled from 16 kHz to the call's 8 kHz
        byte[] recording = Api.download(run.getString("recording_public_url"));
        long toneSamples = 0;
        for (int i = 44; i + 3 < Math.min(recording.length, 44 + 4 * 8_000 * 3); i += 4) {
            toneSamples += Math.abs((short) ((recording[i + 2] & 0xFF) | recording[i + 3] << 8)) > 5_000 ? 1 : 0;
        }
        assertThat(toneSamples / 8_000.0).as("seconds of the tone's loud half-waves in the first 3 s")
                .isBetween(0.5, 1.5);
    }

    @Test
    void aScriptIsCheckedWhenSavedAndKept() {
        as(key).body(Map.of("name", "Bad", "config", Map.of("provider", "simulator", "rules", List.of(Map.of(
                "suffix", "1", "outcome", "busy", "lines", List.of("Hello?")))))).post(
                "/api/v1/organizations/telephony-configs").then().statusCode(400)
                .body("detail", org.hamcrest.Matchers.containsString("only an answered call talks"));
        as(key).body(Map.of("name", "Bad", "config", Map.of("provider", "simulator", "rules", List.of(Map.of(
                "suffix", "1", "outcome", "completed", "lines", List.of("Hello?"), "interrupt_line", 1))))).post(
                "/api/v1/organizations/telephony-configs").then().statusCode(400)
                .body("detail", org.hamcrest.Matchers.containsString("interrupt_line"));
        as(key).body(Map.of("name", "Bad", "config", Map.of("provider", "simulator", "rules", List.of(Map.of(
                "suffix", "1", "outcome", "completed", "pause_ms", 100))))).post(
                "/api/v1/organizations/telephony-configs").then().statusCode(400)
                .body("detail", org.hamcrest.Matchers.containsString("pause_ms needs lines"));
        assertThat(as(key).get("/api/v1/organizations/telephony-configs").then().statusCode(200).extract().asString())
                .as("nothing half-written").doesNotContain("\"Bad\"");
        as(key).get("/api/v1/user/configurations/voices/simulator").then().statusCode(200)
                .body("voices.voice_id", org.hamcrest.Matchers.contains("kevin16"));
        long config = telephony(Map.of("suffix", "7", "outcome", "completed", "lines", List.of(FIRST)));
        assertThat(as(key).get("/api/v1/organizations/telephony-configs/" + config).then().statusCode(200).extract()
                .jsonPath().getList("config.rules[0].lines")).containsExactly(FIRST);
    }

}
