package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.DashboardOrigin;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeProviderServer;
import dev.voiceagent.deploy.support.FakeVoiceProviders;
import dev.voiceagent.deploy.support.FakeVoiceProviders.Reply;
import dev.voiceagent.deploy.support.HeadlessChromium;
import dev.voiceagent.deploy.support.Speech;
import dev.voiceagent.domain.audio.Wav;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * A voice widget's call in a real browser: headless Chromium opens a page of this project's tests (served here) that
 * does what the widget does on a customer's page: starts an embed session, opens the plain WebSocket voice route and
 * streams its microphone (Chromium's fake device playing a FreeTTS speech WAV) as 16 kHz PCM; the page measures the
 * agent's audio and keeps the events, then posts what it saw back to the test. The agent runs the phone pipeline on
 * the fake Deepgram, model and ElevenLabs.
 */
@QuarkusTest
@EnabledIf("dev.voiceagent.deploy.support.HeadlessChromium#installed")
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeProviderServer.class)
@WithTestResource(FakeVoiceProviders.class)
@WithTestResource(DashboardOrigin.class)
public class BrowserPageVoiceEndToEndTest {

    private static final String LINE = "Where is my order?";

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    private String key;
    private long workflow;

    /** The organization's models (the fakes), the agent, and the caller's line in the fakes' script. */
    private void agent() {
        FakeVoiceProviders.reset();
        FakeVoiceProviders.CALLER_LINES.addAll(List.of(LINE, LINE));
        FakeVoiceProviders.REPLIES.add(Reply.says("Your order ships today."));
        key = Api.createKey(Api.signUp("chromium"), "k");
        given().header("X-API-Key", key).contentType(ContentType.JSON).body(Map.of("version", 2, "mode", "byok",
                "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                        "llm", Map.of("provider", "openai", "api_key", "sk-voice-test", "model", "gpt-4.1-mini"),
                        "stt", Map.of("provider", "deepgram", "api_key", "dg-voice-test", "model", "nova-3-general"),
                        "tts", Map.of("provider", "elevenlabs", "api_key", "el-voice-test", "voice", "voice123",
                                "model", "eleven_flash_v2_5")))))
                .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
        workflow = given().header("X-API-Key", key).contentType(ContentType.JSON).body(Map.of("name", "Orders",
                        "workflow_definition", VoiceCallEndToEndTest.definition()))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
    }

    /**
     * Opens the test page {@code page} (src/test/resources/browser) in Chromium with {@code query} and the caller's
     * line as its microphone (a pause, the line, a pause, the line again for a page that missed the first, a long
     * pause: Chromium loops the file); what the page reported.
     */
    private JsonObject openPage(String page, String query) throws Exception {
        return openPage(page, query, html -> html);
    }

    /** As {@link #openPage(String, String)}, the page's HTML passed through {@code edit} as it is served. */
    private JsonObject openPage(String page, String query, java.util.function.UnaryOperator<String> edit)
            throws Exception {
        byte[] line = Speech.pcm16k(LINE);
        byte[] pcm = new byte[32_000 * 2 + line.length + 32_000 * 4 + line.length + 32_000 * 10];
        System.arraycopy(line, 0, pcm, 32_000 * 2, line.length);
        System.arraycopy(line, 0, pcm, 32_000 * 6 + line.length, line.length);
        Path microphone = Files.createTempFile("caller-", ".wav");
        Files.write(microphone, concat(Wav.header(1, 16_000, pcm.length), pcm));

        CompletableFuture<JsonObject> report = new CompletableFuture<>();
        HttpServer pages = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        pages.createContext("/" + page, exchange -> {
            try (InputStream in = getClass().getResourceAsStream("/browser/" + page)) {
                byte[] html = edit.apply(new String(in.readAllBytes(), UTF_8)).getBytes(UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
                exchange.sendResponseHeaders(200, html.length);
                exchange.getResponseBody().write(html);
            }
            exchange.close();
        });
        pages.createContext("/report", exchange -> {
            report.complete(new JsonObject(new String(exchange.getRequestBody().readAllBytes(),
                    StandardCharsets.UTF_8)));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        pages.start();
        String base = "http://127.0.0.1:" + pages.getAddress().getPort();
        String url = base + "/" + page + "?api=http://127.0.0.1:" + port + "&" + query + "&report=" + base + "/report";
        try (HeadlessChromium chromium = HeadlessChromium.open(url, microphone)) {
            try {
                JsonObject seen = report.get(60, TimeUnit.SECONDS);
                assertThat(seen.getJsonArray("errors")).as("the page's errors (Chromium: %s)", chromium.logTail())
                        .isEmpty();
                return seen;
            } catch (TimeoutException e) {
                throw new AssertionError("the page never reported; Chromium said:\n" + chromium.logTail(), e);
            }
        } finally {
            pages.stop(0);
            Files.deleteIfExists(microphone);
        }
    }

    /** The run once completed, with its transcript holding the caller's line and the answer. */
    private JsonPath completedWithTranscript(long runId) throws Exception {
        JsonPath run = null;
        for (int i = 0; i < 100; i++) {
            run = given().header("X-API-Key", key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then()
                    .statusCode(200).extract().jsonPath();
            if (run.getBoolean("is_completed")) {
                break;
            }
            Thread.sleep(100);
        }
        assertThat(run.getBoolean("is_completed")).isTrue();
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).contains("user: " + LINE + "\n", "assistant: Your order ships today.");
        assertThat(run.getString("recording_public_url")).isNotBlank();
        return run;
    }

    private static void heardAndAnswered(JsonObject seen) {
        JsonArray events = seen.getJsonArray("events");
        // the greeting arrived as audio before the caller spoke (its energy measured in the page)
        assertThat(seen.getInteger("loudBeforeCallerSpoke")).as("loud agent frames before the caller spoke")
                .isGreaterThan(20);
        // the caller's line, from Chromium's microphone, was heard (our voice activity on the browser's audio) and
        // answered
        assertThat(events.stream().map(e -> (JsonObject) e).filter(e -> "rtf-user-transcription".equals(
                e.getString("type")) && Boolean.TRUE.equals(e.getJsonObject("payload").getBoolean("final")))
                .map(e -> e.getJsonObject("payload").getString("text")))
                .as("the caller's line heard; the page saw %s", seen.copy().put("events", new JsonArray(events.stream()
                        .map(e -> ((JsonObject) e).getString("type")).toList())).encode())
                .contains(LINE);
        assertThat(events.stream().map(e -> (JsonObject) e).filter(e -> "rtf-bot-text".equals(e.getString("type")))
                .map(e -> e.getJsonObject("payload").getString("text"))).contains("Your order ships today.");
        assertThat(events.stream().map(e -> ((JsonObject) e).getString("type")))
                .contains("rtf-bot-started-speaking", "rtf-latency-measured");
    }

    @Test
    void aVoiceWidgetPageInChromiumHearsTheGreetingIsHeardAndGetsItsAnswer() throws Exception {
        agent();
        String token = given().header("X-API-Key", key).contentType(ContentType.JSON).body(Map.of("allowed_domains",
                        List.of("127.0.0.1"), "settings", Map.of("widgetType", "voice")))
                .post("/api/v1/workflow/" + workflow + "/embed-token").then().statusCode(200).extract().path("token");

        JsonObject seen = openPage("voice-widget.html", "token=" + token);

        System.out.printf("voice widget page in Chromium: capture by %s, the greeting's first audio %d ms after the"
                + " socket opened, %d microphone frames streamed, %d agent frames%n", seen.getString("capture"),
                seen.getInteger("firstAudioMs"), seen.getInteger("sentFrames"), seen.getInteger("agentFrames"));
        assertThat(seen.getJsonArray("events").getJsonObject(0).getString("type")).isEqualTo("ready");
        assertThat(seen.getInteger("sentFrames")).as("microphone frames streamed").isGreaterThan(100);
        heardAndAnswered(seen);
        assertThat(seen.getJsonArray("events").stream().map(e -> ((JsonObject) e).getString("type")))
                .endsWith("call-ended");
        assertThat(completedWithTranscript(seen.getLong("runId")).getString("mode")).isEqualTo("smallwebrtc");
    }

    @Test
    void theEmbedCodeAsTheDashboardShowsItPastedOnAWebsiteCallsIsHeardAndHangsUp() throws Exception {
        agent();
        JsonPath saved = given().header("X-API-Key", key).contentType(ContentType.JSON).body(Map.of(
                        "allowed_domains", List.of("127.0.0.1"), "settings", Map.of("widgetType", "voice")))
                .post("/api/v1/workflow/" + workflow + "/embed-token").then().statusCode(200).extract().jsonPath();
        String snippet = saved.getString("embed_script");
        assertThat(snippet).as("the widget from the dashboard's origin, told where this API is")
                .contains("/embed/dograh-widget.js?token=" + saved.getString("token") + "&environment=")
                .contains("&apiEndpoint=http://localhost:" + port + "'").doesNotContain("{{{");

        // the snippet pasted as it is on a customer's page (another origin than the dashboard's and the API's)
        JsonObject seen = openPage("customer-site.html", "site=acme", html -> html.replace("<!--EMBED-->", snippet));

        System.out.printf("the embed code on a page in Chromium: %d loud agent frames, %d signaling messages, %d ms%n",
                seen.getInteger("loudFrames"), seen.getJsonArray("events").size(), seen.getInteger("elapsedMs"));
        assertThat(seen.getBoolean("connected")).as("the widget's call connected").isTrue();
        assertThat(seen.getInteger("loudFrames")).as("the agent was heard through the widget").isGreaterThan(20);
        assertThat(seen.getBoolean("hungUp")).as("the visitor hung up after the answer").isTrue();
        assertThat(seen.getBoolean("ended")).isTrue();
        JsonPath run = completedWithTranscript(seen.getLong("runId"));
        assertThat(run.getString("mode")).isEqualTo("smallwebrtc");
        assertThat(run.getString("initial_context.page_url")).as("the snippet's visitor context reached the run")
                .contains("/customer-site.html?");
    }

    @Test
    void theDashboardsTestAudioTalksOverWebRtcWithTheReferenceSignaling() throws Exception {
        agent();
        long runId = given().header("X-API-Key", key).contentType(ContentType.JSON).body(Map.of("mode", "smallwebrtc",
                "name", "Test audio")).post("/api/v1/workflow/" + workflow + "/runs").then().statusCode(200)
                .extract().jsonPath().getLong("id");

        JsonObject seen = openPage("webrtc-call.html", "key=" + key + "&workflow=" + workflow + "&run=" + runId
                + "&vars=" + URLEncoder.encode("{\"customer_name\":\"Ada\",\"order_total\":42}", UTF_8));

        connectedOverWebRtc(seen, "Test Audio");
        heardAndAnswered(seen);
        // the editor's call_context_vars joined the run's initial context
        JsonPath run = completedWithTranscript(runId);
        assertThat(run.getString("initial_context.customer_name")).isEqualTo("Ada");
        assertThat(run.getInt("initial_context.order_total")).isEqualTo(42);
    }

    @Test
    void aVoiceWidgetTalksOverWebRtcWithItsSessionToken() throws Exception {
        agent();
        String token = given().header("X-API-Key", key).contentType(ContentType.JSON).body(Map.of("allowed_domains",
                        List.of("127.0.0.1"), "settings", Map.of("widgetType", "voice")))
                .post("/api/v1/workflow/" + workflow + "/embed-token").then().statusCode(200).extract().path("token");

        JsonObject seen = openPage("webrtc-call.html", "token=" + token + "&vars="
                + URLEncoder.encode("{\"customer_name\":\"Mallory\"}", UTF_8));

        connectedOverWebRtc(seen, "the voice widget");
        heardAndAnswered(seen);
        JsonPath run = completedWithTranscript(seen.getLong("runId"));
        assertThat(run.getString("mode")).isEqualTo("smallwebrtc");
        // a widget's page is not trusted with the run's variables (as the reference): they are ignored
        assertThat(run.getString("initial_context.customer_name")).isNull();
    }

    /** The answer (ICE-lite, DTLS server, Opus, this side's candidates in it) and the peer connected. */
    private static void connectedOverWebRtc(JsonObject seen, String what) {
        System.out.printf("%s over WebRTC in Chromium: the greeting's first audio %d ms after the signaling socket"
                + " opened, %d agent frames received%n", what, seen.getInteger("firstAudioMs"),
                seen.getInteger("agentFrames"));
        List<JsonObject> answers = seen.getJsonArray("events").stream().map(e -> (JsonObject) e)
                .filter(e -> "answer".equals(e.getString("type"))).toList();
        assertThat(answers).hasSize(1);
        assertThat(answers.getFirst().getJsonObject("payload").getString("sdp")).contains("a=ice-lite",
                "a=setup:passive", "opus/48000/2", "typ host", "a=fingerprint:sha-256 ");
        assertThat(seen.getString("connection")).as("the peer connection's state").isEqualTo("connected");
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
