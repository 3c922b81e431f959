package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeProviderServer;
import dev.voiceagent.deploy.support.FakeVoiceProviders;
import dev.voiceagent.deploy.support.FakeVoiceProviders.Reply;
import dev.voiceagent.deploy.support.SimulatedCaller;
import dev.voiceagent.deploy.support.TwilioCalls;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Whole phone calls (a Twilio call streamed to a simulated caller) on the speech providers added after Deepgram,
 * ElevenLabs and Cartesia, each against its local stand-in in support/FakeVoiceProviders speaking its own protocol:
 * the greeting, the caller's line heard by the provider's recognizer and answered, the transition and the goodbye,
 * the run's transcript and its usage under the provider's name.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeProviderServer.class)
@WithTestResource(FakeVoiceProviders.class)
class SpeechProvidersVoiceCallEndToEndTest {

    @Inject
    Vertx vertx;

    private String key;
    private long workflow;
    private TwilioCalls calls;
    private final List<SimulatedCaller> callers = new ArrayList<>();

    @BeforeEach
    void setUp() {
        FakeProviderServer.REQUESTS.clear();
        FakeProviderServer.status = 201;
        FakeVoiceProviders.reset();
        key = Api.createKey(Api.signUp("providers"), "k");
        workflow = given().header("X-API-Key", key).contentType(ContentType.JSON)
                .body(Map.of("name", "Orders", "workflow_definition", VoiceCallEndToEndTest.definition()))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        calls = new TwilioCalls(key);
    }

    @AfterEach
    void hangUp() {
        callers.forEach(SimulatedCaller::close);
    }

    private void pipeline(Map<String, Object> stt, Map<String, Object> tts) {
        given().header("X-API-Key", key).contentType(ContentType.JSON).body(Map.of("version", 2, "mode", "byok",
                "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                        "llm", Map.of("provider", "openai", "api_key", "sk-voice-test", "model", "gpt-4.1-mini"),
                        "stt", stt, "tts", tts))))
                .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
    }

    /** A phone call through the whole graph: greeting, one question answered, the transition, goodbye. */
    private JsonPath phoneCall() throws Exception {
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Where is my order?", "No that is all thanks."));
        FakeVoiceProviders.REPLIES.addAll(List.of(Reply.says("It ships today. Anything else?"), Reply.calls("done"),
                Reply.says("Thank you, goodbye.")));
        String url = calls.dial(workflow);
        long runId = TwilioCalls.runOf(url);
        SimulatedCaller caller = new SimulatedCaller(vertx);
        callers.add(caller);
        caller.connect(url);
        caller.pauses(4_000).says("Where is my order?").pauses(3_000).says("No that is all thanks.").pauses(1_000);
        String reason = calls.ended(caller, workflow, runId, 40);
        JsonPath run = calls.completedRun(workflow, runId);
        assertThat(reason).as("the call ended with %s (%s)", run.getString("gathered_context.error"),
                FakeVoiceProviders.VIOLATIONS).isEqualTo("end_call_node");
        assertThat(FakeVoiceProviders.VIOLATIONS).isEmpty();
        assertThat(caller.violations).isEmpty();
        assertThat(caller.firstAgentFrameAfter(caller.speech.getFirst()[1]) - caller.speech.getFirst()[1])
                .as("voice-to-voice of the answer").isBetween(200L, 2_500L);
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).isEqualTo("""
                assistant: Hello, this is Acme. How can I help you?
                user: Where is my order?
                assistant: It ships today. Anything else?
                user: No that is all thanks.
                assistant: Thank you, goodbye.
                """);
        return run;
    }

    @Test
    void aPhoneCallListensWithAssemblyAisStreamingInTheCallsOwnMuLaw() throws Exception {
        pipeline(Map.of("provider", "assemblyai", "api_key", "aa-voice-test", "model", "u3-rt-pro"),
                Map.of("provider", "elevenlabs", "api_key", "el-voice-test", "voice", "voice123"));
        JsonPath run = phoneCall();

        assertThat(FakeVoiceProviders.STT_QUERIES).singleElement().asString()
                .contains("speech_model=u3-rt-pro", "encoding=pcm_mulaw", "sample_rate=8000");
        assertThat(FakeVoiceProviders.STT_CONTROL).as("a ForceEndpoint per caller line, then Terminate")
                .containsSubsequence("ForceEndpoint", "ForceEndpoint", "Terminate");
        assertThat(run.getDouble("usage_info.stt.'assemblyai/u3-rt-pro'.audio_seconds")).isGreaterThan(4.0);
    }

    @Test
    void aPhoneCallSpeaksWithRimesWebSocketInTheCallsOwnMuLawAndKeepsItsWordTimings() throws Exception {
        pipeline(Map.of("provider", "deepgram", "api_key", "dg-voice-test", "model", "nova-3-general"),
                Map.of("provider", "rime", "api_key", "rime-voice-test", "voice", "celeste", "model", "arcana"));
        JsonPath run = phoneCall();

        assertThat(FakeVoiceProviders.TTS_QUERIES).singleElement().asString()
                .contains("speaker=celeste", "modelId=arcana", "audioFormat=mulaw", "samplingRate=8000",
                        "segment=never");
        assertThat(String.join(" ", FakeVoiceProviders.TTS_TEXTS)).as("every sentence spoken")
                .contains("Hello, this is Acme.", "How can I help you?", "It ships today.", "Anything else?",
                        "Thank you, goodbye.");
        long characters = run.getLong("usage_info.tts.'rime/arcana'.characters");
        assertThat(characters).as("the characters Rime spoke, metered once")
                .isEqualTo(FakeVoiceProviders.spokenCharacters("rime-voice-test"));
    }

    @Test
    void aCallerWhoCutsRimeShortHearsTheRestClearedAndTheTranscriptKeepsTheWordsHeard() throws Exception {
        pipeline(Map.of("provider", "assemblyai", "api_key", "aa-voice-test", "model", "u3-rt-pro"),
                Map.of("provider", "rime", "api_key", "rime-voice-test", "voice", "celeste"));
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Tell me about returns.", "Stop please.",
                "No that is all thanks."));
        String answer = VoiceCallEndToEndTest.RETURNS + " " + VoiceCallEndToEndTest.REFUNDS;
        FakeVoiceProviders.REPLIES.addAll(List.of(Reply.says(answer),
                Reply.says("Sure. Anything else?"), Reply.calls("done"), Reply.says("Thank you, goodbye.")));
        String url = calls.dial(workflow);
        long runId = TwilioCalls.runOf(url);
        SimulatedCaller caller = new SimulatedCaller(vertx);
        callers.add(caller);
        caller.connect(url);
        caller.pauses(4_000).says("Tell me about returns.").pauses(2_200).says("Stop please.").pauses(3_000)
                .says("No that is all thanks.").pauses(1_000);
        String reason = calls.ended(caller, workflow, runId, 40);
        JsonPath run = calls.completedRun(workflow, runId);
        assertThat(reason).as("the call ended with %s (%s)", run.getString("gathered_context.error"),
                FakeVoiceProviders.VIOLATIONS).isEqualTo("end_call_node");
        assertThat(FakeVoiceProviders.VIOLATIONS).isEmpty();
        assertThat(caller.clears).as("the answer cut by the caller's second line").hasSize(1);
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        String cut = transcript.lines().filter(l -> l.startsWith("assistant: Returns are easy.")).findFirst()
                .orElseThrow();
        assertThat(answer).as("what the caller heard of the answer, and no more")
                .startsWith(cut.substring("assistant: ".length())).isNotEqualTo(cut.substring("assistant: ".length()));
        assertThat(transcript).contains("user: Stop please.\n", "assistant: Sure. Anything else?\n");
    }
}
