package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.BrowserCaller;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeProviderServer;
import dev.voiceagent.deploy.support.FakeRealtimeModel;
import dev.voiceagent.deploy.support.FakeVoiceProviders;
import dev.voiceagent.deploy.support.FakeVoiceProviders.Reply;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Whole calls on the speech-to-speech models that speak OpenAI's Realtime protocol with their differences, from a
 * browser (16 kHz PCM both ways): xAI's Grok (its own session shape, PCM at the call's rate) and Azure OpenAI's v1 API
 * (the organization's resource endpoint, the key as api-key, 24 kHz PCM resampled both ways), against
 * support/FakeRealtimeModel in each dialect: the graph kept by the engine (the greeting said word for word, the
 * caller's turn answered by the model's own voice activity, a transition, the goodbye), the run's transcript and
 * usage under the provider's name.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeProviderServer.class)
@WithTestResource(FakeVoiceProviders.class)
class SpeechToSpeechProvidersEndToEndTest {

    @Inject
    Vertx vertx;

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    private String key;
    private long workflow;
    private final List<BrowserCaller> callers = new ArrayList<>();

    private static RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    @BeforeEach
    void setUp() {
        FakeVoiceProviders.reset();
        key = Api.createKey(Api.signUp("s2s"), "k");
        workflow = as(key).body(Map.of("name", "Orders", "workflow_definition", VoiceCallEndToEndTest.definition()))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
    }

    @AfterEach
    void hangUp() {
        callers.forEach(BrowserCaller::close);
    }

    private void realtime(Map<String, Object> model) {
        as(key).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "realtime", "realtime", Map.of(
                "realtime", model,
                "llm", Map.of("provider", "openai", "api_key", "sk-voice-test", "model", "gpt-4.1-mini")))))
                .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
    }

    /** A browser call through the whole graph: greeting, one question answered, the transition, goodbye. */
    private JsonPath browserCall() throws Exception {
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Where is my order?", "No that is all thanks."));
        FakeVoiceProviders.REPLIES.addAll(List.of(Reply.says("Your order ships today. Is there anything else?"),
                Reply.calls("done"), Reply.says("Thank you, goodbye.")));
        long runId = as(key).body(Map.of("mode", "smallwebrtc", "name", "Test call"))
                .post("/api/v1/workflow/" + workflow + "/runs").then().statusCode(200).extract().jsonPath()
                .getLong("id");
        BrowserCaller caller = new BrowserCaller(vertx);
        callers.add(caller);
        caller.connect("ws://localhost:" + port + "/api/v1/ws/voice/" + workflow + "/" + runId + "?token=" + key,
                null);
        caller.pauses(4_000).says("Where is my order?").pauses(3_000).says("No that is all thanks.").pauses(1_000);
        String reason = caller.closed.get(40, TimeUnit.SECONDS);
        JsonPath run = null;
        for (int i = 0; i < 100 && (run == null || !run.getBoolean("is_completed")); i++) {
            Thread.sleep(100);
            run = as(key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then().statusCode(200).extract()
                    .jsonPath();
        }
        assertThat(reason).as("closed with %s (fakes: %s)", run.getString("gathered_context.error"),
                FakeVoiceProviders.VIOLATIONS).isEqualTo("end_call_node");
        assertThat(FakeVoiceProviders.VIOLATIONS).isEmpty();
        assertThat(FakeVoiceProviders.CHAT_REQUESTS).as("no text model: the realtime one answered").isEmpty();

        // the greeting said word for word before the caller spoke, the answer heard after the caller's line
        assertThat(FakeRealtimeModel.RESPONSE_REQUESTS.getFirst().getJsonObject("response").getString("instructions"))
                .startsWith("Say exactly").contains("Hello, this is Acme. How can I help you?");
        assertThat(caller.loudFramesBetween(0, caller.speech.getFirst()[0], -40)).as("the greeting's loud frames")
                .isGreaterThan(20);
        assertThat(caller.firstAgentFrameAfter(caller.speech.getFirst()[1]) - caller.speech.getFirst()[1])
                .as("voice-to-voice").isBetween(200L, 3_000L);
        assertThat(FakeRealtimeModel.SESSIONS.getLast().getString("instructions"))
                .contains("Thank the caller and say goodbye.");
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).startsWith("assistant: Hello, this is Acme. How can I help you?\n")
                .contains("user: Where is my order?\n", "assistant: Your order ships today. Is there anything else?\n",
                        "user: No that is all thanks.\n")
                .endsWith("assistant: Thank you, goodbye.\n");
        return run;
    }

    @Test
    void aBrowserCallOnGrokSpeaksItsSessionShapeAtTheCallsOwnRate() throws Exception {
        realtime(Map.of("provider", "grok_realtime", "api_key", "xai-test", "model", "grok-voice-think-fast-1.0",
                "voice", "eve"));
        JsonPath run = browserCall();

        assertThat(FakeRealtimeModel.DIALECTS).containsExactly(FakeRealtimeModel.Dialect.GROK);
        assertThat(FakeRealtimeModel.QUERIES).containsExactly("model=grok-voice-think-fast-1.0");
        JsonObject first = FakeRealtimeModel.SESSIONS.getFirst();
        assertThat(first.getString("voice")).isEqualTo("eve");
        assertThat(first.getJsonObject("audio").getJsonObject("input").getJsonObject("format"))
                .isEqualTo(new JsonObject().put("type", "audio/pcm").put("rate", 16_000));
        assertThat(run.getInt("usage_info.llm.'grok_realtime/grok-voice-think-fast-1.0'.total_tokens"))
                .isGreaterThanOrEqualTo(120);
        assertThat(run.getDouble("usage_info.realtime.'grok_realtime/grok-voice-think-fast-1.0'.audio_seconds"))
                .isGreaterThan(4.0);
    }

    @Test
    void aBrowserCallOnAzureOpenAiReachesTheResourceAndIsResampledTo24KhzBothWays() throws Exception {
        realtime(Map.of("provider", "azure_realtime", "api_key", "azure-test", "model", "my-realtime",
                "endpoint", FakeVoiceProviders.base, "voice", "coral"));
        JsonPath run = browserCall();

        assertThat(FakeRealtimeModel.DIALECTS).containsExactly(FakeRealtimeModel.Dialect.AZURE);
        assertThat(FakeRealtimeModel.QUERIES).containsExactly("model=my-realtime");
        JsonObject first = FakeRealtimeModel.SESSIONS.getFirst();
        assertThat(first.getJsonObject("audio").getJsonObject("output").getString("voice")).isEqualTo("coral");
        assertThat(first.getJsonObject("audio").getJsonObject("input").getJsonObject("format"))
                .isEqualTo(new JsonObject().put("type", "audio/pcm").put("rate", 24_000));
        assertThat(first.getJsonObject("audio").getJsonObject("input").getJsonObject("transcription")
                .getString("model")).isEqualTo("whisper-1");
        assertThat(run.getInt("usage_info.llm.'azure_realtime/my-realtime'.total_tokens"))
                .isGreaterThanOrEqualTo(120);
    }
}
