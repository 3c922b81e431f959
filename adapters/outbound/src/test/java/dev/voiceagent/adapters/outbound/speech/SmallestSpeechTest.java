package dev.voiceagent.adapters.outbound.speech;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.adapters.outbound.ProviderChecks;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.model.ModelService;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Smallest AI's streamed speech ({@code POST /waves/v1/tts/live}, server-sent events) as the voice runtime speaks to
 * it, against a local server that checks each request (the Bearer key, the model, the voice, the language, the speed,
 * raw PCM at the call's rate, the sentence) and answers as Smallest does: audio events of base64 PCM, lines split
 * across the body's pieces, the done event; a refused key (401 with Smallest's JSON words); a request never answered;
 * an error event after some audio; a long sentence the caller interrupts; and the key check.
 */
class SmallestSpeechTest {

    private static final String KEY = "sm-key";
    private static final List<JsonObject> BODIES = new CopyOnWriteArrayList<>();
    private static final List<String> PROBLEMS = new CopyOnWriteArrayList<>();
    private static final List<HttpServerRequest> CHECKS = new CopyOnWriteArrayList<>();
    private static final Map<String, Integer> ATTEMPTS = new ConcurrentHashMap<>();
    private static final Set<String> RESET = ConcurrentHashMap.newKeySet();
    private static Vertx vertx;
    private static HttpServer server;
    private static GuardedHttp http;
    private static ProviderApis apis;
    private static SpeechProviders speech;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(SmallestSpeechTest::smallest);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        String base = "http://127.0.0.1:" + server.actualPort();
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(400));
        apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v").pointing("smallest", base);
        speech = new SpeechProviders(http, apis, vertx, Duration.ofMillis(400), 3, Duration.ofMillis(100),
                Duration.ofSeconds(1));
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        BODIES.clear();
        PROBLEMS.clear();
        CHECKS.clear();
        ATTEMPTS.clear();
        RESET.clear();
    }

    /**
     * Smallest: "silent ..." is never answered, "fails ..." sends an error event after its first audio, "long ..."
     * streams for seconds; any other sentence is three audio events (samples 1000, 2000, 3000, 80 of each) and done.
     */
    private static void smallest(HttpServerRequest request) {
        boolean keyed = ("Bearer " + KEY).equals(request.getHeader("Authorization"));
        if (request.path().equals("/waves/v1/lightning-v3.1/get_voices")) {
            CHECKS.add(request);
            request.response().setStatusCode(keyed ? 200 : 401).putHeader("Content-Type", "application/json")
                    .end(keyed ? "{\"voices\":[]}"
                            : "{\"error\":\"Unauthorized\",\"message\":\"Bearer token is missing or invalid.\"}");
            return;
        }
        if (!"POST".equals(request.method().name()) || !"/waves/v1/tts/live".equals(request.path())) {
            PROBLEMS.add(request.method() + " " + request.path());
            request.response().setStatusCode(404).end();
            return;
        }
        if (!keyed) {
            request.response().setStatusCode(401).putHeader("Content-Type", "application/json")
                    .end("{\"error\":\"Unauthorized\",\"message\":\"Bearer token is missing or invalid.\"}");
            return;
        }
        request.body().onSuccess(body -> {
            JsonObject json = body.toJsonObject();
            BODIES.add(json);
            if (!"text/event-stream".equals(request.getHeader("Accept"))) {
                PROBLEMS.add("Accept " + request.getHeader("Accept"));
            }
            String text = json.getString("text", "");
            ATTEMPTS.merge(text, 1, Integer::sum);
            if (text.startsWith("silent")) {
                return;
            }
            HttpServerResponse response = request.response().setChunked(true)
                    .putHeader("Content-Type", "text/event-stream");
            response.closeHandler(v -> RESET.add(text));
            int events = text.startsWith("long") ? 200 : 3;
            int[] sent = {0};
            vertx.setPeriodic(15, id -> {
                if (response.closed() || response.ended()) {
                    vertx.cancelTimer(id);
                    return;
                }
                if (text.startsWith("fails") && sent[0] == 1) {
                    vertx.cancelTimer(id);
                    response.end("data: {\"status\": \"error\", \"error\": {\"message\": \"Voice sophia is not"
                            + " available for lightning_v3.1\", \"code\": \"invalid_voice\"}}\n\n");
                    return;
                }
                if (sent[0] == events) {
                    vertx.cancelTimer(id);
                    response.end("data: {\"status\": \"200\", \"done\": true}\n\n");
                    return;
                }
                String event = "event: audio\ndata: {\"audio\": \"" + Base64.getEncoder().encodeToString(
                        Pcm16.bytes(samples(++sent[0]))) + "\", \"done\": false, \"status\": \"206\"}\n\n";
                int half = event.length() / 2; // a line split across two pieces of the body
                response.write(event.substring(0, half));
                response.write(event.substring(half));
            });
        });
    }

    private static short[] samples(int event) {
        short[] samples = new short[80];
        Arrays.fill(samples, (short) (1_000 * event));
        return samples;
    }

    private static short[] expected(int events) {
        short[] all = new short[80 * events];
        for (int i = 0; i < events; i++) {
            System.arraycopy(samples(i + 1), 0, all, 80 * i, 80);
        }
        return all;
    }

    private static ModelEndpoint smallest(String key, Double speed) {
        Map<String, Object> settings = new HashMap<>(Map.of("provider", "smallest", "model", "lightning_v3.1",
                "voice", "sophia", "language", "en"));
        if (speed != null) {
            settings.put("speed", speed);
        }
        return new ModelEndpoint(ModelService.TTS, "smallest", "lightning_v3.1", null, List.of(key), settings,
                false);
    }

    @Test
    void eachSentenceIsAnEventStreamOfPcmAtTheCallsRateEncodedToMulawOnThePhone() {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(smallest(KEY, 1.2), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Hello there.");
        stream.speak("u2", "How can I help?");
        heard.await("u1:done");
        heard.await("u2:done");
        assertThat(PROBLEMS).isEmpty();
        assertThat(BODIES).extracting(b -> b.getString("text")).containsExactlyInAnyOrder("Hello there.",
                "How can I help?");
        assertThat(BODIES).allSatisfy(b -> assertThat(b.copy().put("text", "")).isEqualTo(new JsonObject()
                .put("voice_id", "sophia").put("model", "lightning_v3.1").put("language", "en")
                .put("sample_rate", 8_000).put("output_format", "pcm").put("speed", 1.2).put("text", "")));
        assertThat(heard.of("u1")).as("the PCM in order, as μ-law").isEqualTo(G711.encode(expected(3)));
        assertThat(heard.of("u2")).isEqualTo(G711.encode(expected(3)));
        assertThat(heard.of("u1", true)).containsExactly("u1:audio", "u1:done");
        assertThat(stream.characters()).isEqualTo("Hello there.".length() + "How can I help?".length());
        stream.close();
    }

    @Test
    void aBrowserCallGetsThePcmAt16kHzAsItCame() {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(smallest(KEY, null), AudioFormat.PCM_16K, heard);
        stream.speak("u1", "Hello.");
        heard.await("u1:done");
        assertThat(BODIES).singleElement().satisfies(b -> {
            assertThat(b.getInteger("sample_rate")).isEqualTo(16_000);
            assertThat(b.containsKey("speed")).isFalse();
        });
        assertThat(heard.of("u1")).isEqualTo(Pcm16.bytes(expected(3)));
        stream.close();
    }

    @Test
    void aRefusedKeyFailsTheStreamWithSmallestsWordsAndIsNotAskedAgain() throws Exception {
        SpeechHeard heard = new SpeechHeard();
        speech.open(smallest("wrong", null), AudioFormat.MULAW_8K, heard).speak("u1", "Hello.");
        heard.await("failed:");
        assertThat(heard.events).singleElement().asString().startsWith("failed:Smallest AI: HTTP 401")
                .contains("Bearer token is missing or invalid.");
        Thread.sleep(300);
        assertThat(heard.events).hasSize(1);
        assertThat(BODIES).isEmpty();
    }

    @Test
    void aProviderThatNeverAnswersFailsTheStreamOnceTheBudgetIsSpent() {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(smallest(KEY, null), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "silent please");
        heard.await("failed:");
        assertThat(heard.events).singleElement().asString().startsWith("failed:Smallest AI:");
        assertThat(ATTEMPTS.get("silent please")).as("tried again within the budget").isBetween(2, 3);
        stream.close();
    }

    @Test
    void anErrorEventAfterSomeAudioFailsTheStreamWithSmallestsWords() {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(smallest(KEY, null), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "fails midway");
        heard.await("failed:");
        assertThat(heard.events.stream().filter(e -> !e.endsWith(":audio"))).containsExactly(
                "failed:Smallest AI: Voice sophia is not available for lightning_v3.1 (invalid_voice)");
        assertThat(heard.of("u1")).isEqualTo(G711.encode(expected(1)));
        assertThat(ATTEMPTS.get("fails midway")).as("not asked again").isEqualTo(1);
        assertThat(stream.characters()).isZero();
        stream.close();
    }

    @Test
    void aCancelledSentenceIsResetAtSmallestAndTheNextIsSpokenWhole() {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(smallest(KEY, null), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "long answer the caller cuts short");
        heard.await("u1:audio");
        stream.cancel("u1");
        int heardOfIt = heard.of("u1").length;
        stream.speak("u2", "Sure.");
        heard.await("u2:done");
        heard.until(() -> RESET.contains("long answer the caller cuts short"), "Smallest saw the request reset");
        assertThat(heard.of("u1").length).as("nothing more of it").isEqualTo(heardOfIt).isLessThan(80 * 200);
        assertThat(heard.events).noneMatch(e -> e.equals("u1:done") || e.startsWith("failed:"));
        assertThat(heard.of("u2")).isEqualTo(G711.encode(expected(3)));
        assertThat(stream.characters()).isEqualTo("long answer the caller cuts short".length() + "Sure.".length());
        stream.close();
    }

    @Test
    void theKeyIsCheckedByListingTheVoices() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(smallest(KEY, null)).await().atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(CHECKS).singleElement().satisfies(r -> assertThat(r.method().name()).isEqualTo("GET"));
        assertThat(checks.problem(smallest("wrong", null)).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Invalid Smallest AI API key")
                        .contains("401", "Bearer token is missing or invalid."));
        assertThat(BODIES).isEmpty();
    }
}
