package dev.voiceagent.adapters.outbound.speech;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.adapters.outbound.ProviderChecks;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.UnsupportedSpeechProvider;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.model.ModelService;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * Azure Speech's REST synthesis as a call speaks with it, against a local server that answers as Azure does at the
 * region's address ({@code {region}} of the installation's address filled in): each request checked (the key in
 * Ocp-Apim-Subscription-Key, SSML with the voice, language, prosody rate and the sentence escaped, the call's own
 * output format), the audio streamed back in chunks and handed on in order as it is. And the faults: a refused key
 * (failed with Azure's words, asked once), a provider that never answers (failed once the budget is spent), a stream
 * cut mid-way (the sentence restarted and spoken whole), a sentence cancelled mid-stream (its request reset, the next
 * one spoken); and the key check, the region's voice list.
 */
class AzureSpeechTest {

    private static final String KEY = "az-key";
    private static final String ACCESS_DENIED = "{\"error\":{\"code\":\"401\",\"message\":\"Access denied due to invalid"
            + " subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and"
            + " use a correct regional API endpoint for your resource.\"}}";

    /** One synthesis request as the server saw it. */
    static final class Seen {
        final String path;
        final Map<String, String> headers = new HashMap<>();
        final String ssml;
        final String text;

        Seen(HttpServerRequest request, String ssml, String text) {
            this.path = request.path();
            request.headers().forEach(h -> headers.put(h.getKey().toLowerCase(), h.getValue()));
            this.ssml = ssml;
            this.text = text;
        }
    }

    private static final List<Seen> SEEN = new CopyOnWriteArrayList<>();
    private static final List<String> VOICE_LISTS = new CopyOnWriteArrayList<>();
    private static final Map<String, Integer> ATTEMPTS = new ConcurrentHashMap<>();
    private static final Map<String, Boolean> RESET = new ConcurrentHashMap<>();
    private static Vertx vertx;
    private static HttpServer server;
    private static GuardedHttp http;
    private static ProviderApis apis;
    /** Patient enough for a loaded machine's first request: most tests are about what the provider answers. */
    private static SpeechProviders speech;
    /** A short time-out and budget, where running out of them is the point. */
    private static SpeechProviders impatient;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(AzureSpeechTest::request);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        String base = "http://127.0.0.1:" + server.actualPort();
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofSeconds(10));
        apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v").pointing("azure_speech",
                base + "/{region}");
        speech = new SpeechProviders(http, apis, vertx, Duration.ofSeconds(10), 3, Duration.ofMillis(100),
                Duration.ofSeconds(10));
        impatient = new SpeechProviders(new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")),
                Duration.ofMillis(600)), apis, vertx, Duration.ofMillis(600), 3, Duration.ofMillis(100),
                Duration.ofSeconds(1));
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        SEEN.clear();
        VOICE_LISTS.clear();
        ATTEMPTS.clear();
        RESET.clear();
    }

    private static void request(HttpServerRequest request) {
        request.body().onSuccess(body -> {
            if (request.path().equals("/westeurope/cognitiveservices/voices/list")) {
                VOICE_LISTS.add(request.getHeader("Ocp-Apim-Subscription-Key"));
                boolean good = KEY.equals(request.getHeader("Ocp-Apim-Subscription-Key"));
                request.response().setStatusCode(good ? 200 : 401).putHeader("Content-Type", "application/json")
                        .end(good ? "[{\"ShortName\":\"en-US-AriaNeural\",\"Locale\":\"en-US\"}]" : ACCESS_DENIED);
            } else if (request.method().name().equals("POST")
                    && request.path().endsWith("/cognitiveservices/v1")) {
                synthesize(request, body.toString(StandardCharsets.UTF_8));
            } else {
                request.response().setStatusCode(404).end();
            }
        });
    }

    /**
     * Answers a sentence as Azure does: its audio in chunks (a μ-law byte or a PCM sample per position, so order shows).
     * "refuse" is a 401, "silent" never answers, "breaks" is cut after its first chunk the first time, "long" streams
     * for seconds.
     */
    private static void synthesize(HttpServerRequest request, String ssml) {
        String text = text(ssml);
        SEEN.add(new Seen(request, ssml, text));
        int attempt = ATTEMPTS.merge(text, 1, Integer::sum);
        HttpServerResponse response = request.response();
        if (text.equals("refuse")) {
            response.setStatusCode(401).putHeader("Content-Type", "application/json").end(ACCESS_DENIED);
            return;
        }
        if (text.equals("silent")) {
            return;
        }
        boolean pcm = "raw-16khz-16bit-mono-pcm".equals(request.getHeader("X-Microsoft-OutputFormat"));
        byte[] audio = audio(text, pcm);
        boolean long_ = text.startsWith("long");
        int pieces = long_ ? 60 : 3;
        response.setChunked(true).putHeader("Content-Type", "audio/basic");
        response.closeHandler(v -> RESET.put(text, true));
        if (text.startsWith("breaks") && attempt == 1) {
            response.write(Buffer.buffer(java.util.Arrays.copyOf(audio, audio.length / 3)));
            vertx.setTimer(30, t -> request.connection().close());
            return;
        }
        int piece = audio.length / pieces + 1;
        stream(response, audio, 0, piece, long_ ? 50 : 10);
    }

    private static void stream(HttpServerResponse response, byte[] audio, int at, int piece, long gapMs) {
        if (response.closed()) {
            return;
        }
        if (at >= audio.length) {
            response.end();
            return;
        }
        int end = Math.min(audio.length, at + piece);
        response.write(Buffer.buffer(java.util.Arrays.copyOfRange(audio, at, end)));
        vertx.setTimer(gapMs, t -> stream(response, audio, end, piece, gapMs));
    }

    /** A sentence's audio: 10 ms a character, each byte its position's (so any reordering or loss shows). */
    static byte[] audio(String text, boolean pcm) {
        int samples = text.length() * (pcm ? 160 : 80);
        byte[] audio = new byte[samples * (pcm ? 2 : 1)];
        for (int i = 0; i < audio.length; i++) {
            audio[i] = (byte) (text.hashCode() + i * 7);
        }
        return audio;
    }

    /** The sentence of an SSML body: the text of its voice element (null when it does not parse). */
    private static String text(String ssml) {
        Element voice = voice(ssml);
        return voice == null ? null : voice.getTextContent();
    }

    private static Element voice(String ssml) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document document = factory.newDocumentBuilder()
                    .parse(new ByteArrayInputStream(ssml.getBytes(StandardCharsets.UTF_8)));
            return (Element) document.getDocumentElement().getElementsByTagNameNS(
                    "http://www.w3.org/2001/10/synthesis", "voice").item(0);
        } catch (Exception notXml) {
            return null;
        }
    }

    private static ModelEndpoint azure(String key, Map<String, Object> settings) {
        return new ModelEndpoint(ModelService.TTS, "azure_speech", "neural", null, key == null ? List.of()
                : List.of(key), settings, false);
    }

    private static final Map<String, Object> SETTINGS = Map.of("region", "westeurope", "voice", "en-US-JennyNeural",
            "language", "en-US", "speed", 1.25);

    @Test
    void eachSentenceIsAskedInSsmlAndItsAudioStreamedInTheCallsOwnFormat() throws Exception {
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(2);
        TextToSpeech.Stream stream = speech.open(azure(KEY, SETTINGS), AudioFormat.MULAW_8K, heard);
        String tricky = "Tom & Jerry's <best> \"friends\".";
        stream.speak("u1", "Hello there.");
        stream.speak("u2", tricky);
        heard.await();
        assertThat(heard.events).containsExactlyInAnyOrder("done:u1", "done:u2");
        assertThat(heard.audio.get("u1").toByteArray()).as("μ-law as Azure sent it, in order")
                .isEqualTo(audio("Hello there.", false));
        assertThat(heard.audio.get("u2").toByteArray()).isEqualTo(audio(tricky, false));
        assertThat(SEEN).extracting(s -> s.text).containsOnly("Hello there.", tricky);
        for (Seen seen : SEEN) {
            assertThat(seen.path).as("the region's address").isEqualTo("/westeurope/cognitiveservices/v1");
            assertThat(seen.headers).containsEntry("ocp-apim-subscription-key", KEY)
                    .containsEntry("content-type", "application/ssml+xml")
                    .containsEntry("x-microsoft-outputformat", "raw-8khz-8bit-mono-mulaw")
                    .containsKey("user-agent");
            Element voice = voice(seen.ssml);
            assertThat(voice.getAttribute("name")).isEqualTo("en-US-JennyNeural");
            assertThat(voice.getOwnerDocument().getDocumentElement().getAttribute("xml:lang")).isEqualTo("en-US");
            Element prosody = (Element) voice.getElementsByTagNameNS("http://www.w3.org/2001/10/synthesis",
                    "prosody").item(0);
            assertThat(prosody.getAttribute("rate")).isEqualTo("1.25");
        }
        assertThat(stream.characters()).isEqualTo("Hello there.".length() + tricky.length());
        stream.close();
    }

    @Test
    void aBrowserCallGets16kPcmAndNoProsodyAtTheVoicesOwnSpeed() throws Exception {
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(azure(KEY, Map.of("region", "westeurope")), AudioFormat.PCM_16K,
                heard);
        stream.speak("u1", "In a browser.");
        heard.await();
        assertThat(heard.events).containsExactly("done:u1");
        assertThat(heard.audio.get("u1").toByteArray()).isEqualTo(audio("In a browser.", true));
        assertThat(SEEN).singleElement().satisfies(seen -> {
            assertThat(seen.headers).containsEntry("x-microsoft-outputformat", "raw-16khz-16bit-mono-pcm");
            assertThat(voice(seen.ssml).getAttribute("name")).as("the catalog's default voice")
                    .isEqualTo("en-US-AriaNeural");
            assertThat(seen.ssml).doesNotContain("prosody");
        });
        stream.close();
    }

    @Test
    void aRefusedKeyFailsTheStreamWithAzuresWordsAfterOneRequest() throws Exception {
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(azure("wrong", SETTINGS), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "refuse");
        heard.await();
        assertThat(heard.events).singleElement().asString().startsWith("failed:Azure Speech: HTTP 401")
                .contains("Access denied due to invalid subscription key");
        assertThat(ATTEMPTS.get("refuse")).as("a refused key is not asked again").isEqualTo(1);
        assertThat(stream.characters()).isZero();
        stream.close();
    }

    @Test
    void aProviderThatNeverAnswersFailsTheStreamOnceTheBudgetIsSpent() throws Exception {
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = impatient.open(azure(KEY, SETTINGS), AudioFormat.MULAW_8K, heard);
        long started = System.nanoTime();
        stream.speak("u1", "silent");
        heard.await();
        assertThat(heard.events).singleElement().asString().startsWith("failed:Azure Speech:");
        assertThat(ATTEMPTS.get("silent")).as("asked again within the budget").isBetween(2, 3);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        stream.close();
    }

    @Test
    void aStreamCutMidwayIsRestartedAndSpokenWhole() throws Exception {
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(azure(KEY, SETTINGS), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "breaks off here.");
        heard.await();
        assertThat(heard.events).containsExactly("restart:u1", "done:u1");
        assertThat(heard.audio.get("u1").toByteArray()).isEqualTo(audio("breaks off here.", false));
        assertThat(ATTEMPTS.get("breaks off here.")).isEqualTo(2);
        assertThat(stream.characters()).as("counted once").isEqualTo("breaks off here.".length());
        stream.close();
    }

    @Test
    void aCancelledSentenceIsResetAndTheNextOneIsSpoken() throws Exception {
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(azure(KEY, SETTINGS), AudioFormat.MULAW_8K, heard);
        String cut = "long answer that the caller cuts short";
        stream.speak("u1", cut);
        long deadline = System.currentTimeMillis() + 5_000;
        while (!heard.audio.containsKey("u1") && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        stream.cancel("u1");
        int sizeAtCancel = heard.audio.get("u1").size();
        stream.speak("u2", "After.");
        heard.await();
        assertThat(heard.events).containsExactly("done:u2");
        assertThat(heard.audio.get("u2").toByteArray()).isEqualTo(audio("After.", false));
        while (!RESET.containsKey(cut) && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertThat(RESET).as("Azure saw the request reset").containsKey(cut);
        assertThat(heard.audio.get("u1").size()).as("nothing of it after the cancel").isEqualTo(sizeAtCancel)
                .isLessThan(audio(cut, false).length);
        assertThat(stream.characters()).as("its start was heard").isEqualTo(cut.length() + "After.".length());
        stream.close();
    }

    @Test
    void aRegionThatIsNotARegionsNameIsRefusedAtOpen() {
        assertThatThrownBy(() -> speech.open(azure(KEY, Map.of("region", "evil.example/x?")), AudioFormat.MULAW_8K,
                new SpeechRequestsTest.Heard(0))).isInstanceOf(UnsupportedSpeechProvider.class)
                .hasMessageContaining("not the name of an Azure region");
        assertThatThrownBy(() -> speech.open(azure(null, SETTINGS), AudioFormat.MULAW_8K,
                new SpeechRequestsTest.Heard(0))).isInstanceOf(UnsupportedSpeechProvider.class)
                .hasMessageContaining("no API key");
        assertThat(SEEN).isEmpty();
    }

    @Test
    void theKeyIsCheckedWithTheRegionsVoiceList() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(azure(KEY, SETTINGS)).await().atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(checks.problem(azure("wrong", SETTINGS)).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Invalid Azure Speech API key")
                        .contains("401", "Access denied due to invalid subscription key"));
        assertThat(new ArrayList<>(VOICE_LISTS)).containsExactly(KEY, "wrong");
        assertThat(SEEN).as("nothing synthesized, nothing billed").isEmpty();
    }
}
