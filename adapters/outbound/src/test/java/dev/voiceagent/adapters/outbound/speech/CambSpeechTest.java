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
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Loudness;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.model.ModelService;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Arrays;
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
 * Camb.ai's streamed speech ({@code POST /apis/tts-stream}) as the voice runtime speaks to it, against a local server
 * that checks each request (the key in x-api-key, the model, the numeric voice, the language, raw 16-bit PCM, the
 * sentence) and answers as Camb.ai does: mars-flash's 22.05 kHz PCM streamed in pieces of odd sizes (a 440 Hz tone,
 * then silence), resampled here to the call's format; a refused key (401 with its JSON words); a request never
 * answered; a stream cut after its first piece; a long sentence the caller interrupts; configurations it cannot speak;
 * the key check.
 */
class CambSpeechTest {

    private static final String KEY = "camb-key";
    private static final int RATE = 22_050;
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
        server = vertx.createHttpServer().requestHandler(CambSpeechTest::camb);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        String base = "http://127.0.0.1:" + server.actualPort();
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(400));
        apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v").pointing("camb", base + "/apis");
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
     * Camb.ai: "silent ..." is never answered, "breaks ..." is cut after its first piece the first time, "long ..."
     * streams for seconds; any other sentence is 300 ms of a 440 Hz tone then 200 ms of silence, in pieces of 1001
     * bytes (samples split across pieces).
     */
    private static void camb(HttpServerRequest request) {
        boolean keyed = KEY.equals(request.getHeader("x-api-key"));
        if (request.path().equals("/apis/list-voices")) {
            CHECKS.add(request);
            request.response().setStatusCode(keyed ? 200 : 401).putHeader("Content-Type", "application/json")
                    .end(keyed ? "[]" : "{\"detail\":\"Invalid API key\"}");
            return;
        }
        if (!"POST".equals(request.method().name()) || !"/apis/tts-stream".equals(request.path())) {
            PROBLEMS.add(request.method() + " " + request.path());
            request.response().setStatusCode(404).end();
            return;
        }
        if (!keyed) {
            request.response().setStatusCode(401).putHeader("Content-Type", "application/json")
                    .end("{\"detail\":\"Invalid API key\"}");
            return;
        }
        request.body().onSuccess(body -> {
            JsonObject json = body.toJsonObject();
            BODIES.add(json);
            String text = json.getString("text", "");
            int attempt = ATTEMPTS.merge(text, 1, Integer::sum);
            if (text.startsWith("silent")) {
                return;
            }
            HttpServerResponse response = request.response().setChunked(true)
                    .putHeader("Content-Type", "audio/pcm");
            response.closeHandler(v -> RESET.add(text));
            byte[] audio = text.startsWith("long") ? tone(5_000, 0) : tone(300, 200);
            int[] at = {0};
            vertx.setPeriodic(10, id -> {
                if (response.closed() || response.ended()) {
                    vertx.cancelTimer(id);
                } else if (at[0] >= audio.length) {
                    vertx.cancelTimer(id);
                    response.end();
                } else if (text.startsWith("breaks") && attempt == 1 && at[0] > 0) {
                    vertx.cancelTimer(id);
                    request.connection().close();
                } else {
                    int n = Math.min(1_001, audio.length - at[0]);
                    response.write(Buffer.buffer(Arrays.copyOfRange(audio, at[0], at[0] + n)));
                    at[0] += n;
                }
            });
        });
    }

    /** {@code toneMs} of 440 Hz then {@code silenceMs} of silence, as 22.05 kHz 16-bit little-endian PCM. */
    private static byte[] tone(int toneMs, int silenceMs) {
        short[] samples = new short[RATE * (toneMs + silenceMs) / 1_000];
        for (int i = 0; i < RATE * toneMs / 1_000; i++) {
            samples[i] = (short) (8_000 * Math.sin(2 * Math.PI * 440 * i / RATE));
        }
        return Pcm16.bytes(samples);
    }

    private static ModelEndpoint camb(String key, String model, String voice) {
        Map<String, Object> settings = new HashMap<>(Map.of("provider", "camb", "model", model, "voice", voice,
                "language", "en-us"));
        return new ModelEndpoint(ModelService.TTS, "camb", model, null, List.of(key), settings, false);
    }

    private static int crossingsPerSecond(short[] samples, int rate) {
        int crossings = 0;
        for (int i = 1; i < samples.length; i++) {
            crossings += (samples[i - 1] < 0) != (samples[i] < 0) ? 1 : 0;
        }
        return (int) Math.round(crossings / 2.0 / (samples.length / (double) rate));
    }

    @Test
    void eachSentenceIsAStreamOfPcmResampledAndEncodedToTheCallsFormatInOrder() {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(camb(KEY, "mars-flash", "147320"), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Hello there.");
        stream.speak("u2", "How can I help?");
        heard.await("u1:done");
        heard.await("u2:done");
        assertThat(PROBLEMS).isEmpty();
        assertThat(BODIES).extracting(b -> b.getString("text")).containsExactlyInAnyOrder("Hello there.",
                "How can I help?");
        assertThat(BODIES).allSatisfy(b -> assertThat(b.copy().put("text", "")).isEqualTo(new JsonObject()
                .put("voice_id", 147320).put("language", "en-us").put("speech_model", "mars-flash")
                .put("output_configuration", new JsonObject().put("format", "pcm_s16le")).put("text", "")));
        for (String u : List.of("u1", "u2")) {
            byte[] audio = heard.of(u);
            assertThat(audio.length).as("half a second at 8 kHz").isBetween(3_990, 4_010);
            short[] tone = G711.decode(Arrays.copyOfRange(audio, 200, 2_200));
            short[] silence = G711.decode(Arrays.copyOfRange(audio, 2_600, 3_900));
            assertThat(Loudness.dbfs(tone)).as("the tone first, at its level").isBetween(-16.0, -9.0);
            assertThat(crossingsPerSecond(tone, 8_000)).as("still 440 Hz").isBetween(430, 450);
            assertThat(Loudness.dbfs(silence)).as("then the silence").isLessThan(-50.0);
        }
        assertThat(stream.characters()).isEqualTo("Hello there.".length() + "How can I help?".length());
        stream.close();
    }

    @Test
    void aBrowserCallGets16kHzPcmAndMarsProIsResampledFrom48kHz() {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(camb(KEY, "mars-flash", "147320"), AudioFormat.PCM_16K, heard);
        stream.speak("u1", "Hello.");
        heard.await("u1:done");
        assertThat(heard.of("u1").length).as("half a second of 16 kHz PCM").isBetween(15_980, 16_020);
        short[] tone = Pcm16.samples(Arrays.copyOfRange(heard.of("u1"), 800, 8_800));
        assertThat(crossingsPerSecond(tone, 16_000)).isBetween(430, 450);
        assertThat(SpeechProviders.CAMB_RATES).containsEntry("mars-pro", 48_000);
        stream.close();
    }

    @Test
    void aRefusedKeyFailsTheStreamWithCambsWordsAndIsNotAskedAgain() throws Exception {
        SpeechHeard heard = new SpeechHeard();
        speech.open(camb("wrong", "mars-flash", "147320"), AudioFormat.MULAW_8K, heard).speak("u1", "Hello.");
        heard.await("failed:");
        assertThat(heard.events).singleElement().asString().startsWith("failed:Camb.ai: HTTP 401")
                .contains("Invalid API key");
        Thread.sleep(300);
        assertThat(heard.events).hasSize(1);
        assertThat(BODIES).isEmpty();
    }

    @Test
    void aProviderThatNeverAnswersFailsTheStreamOnceTheBudgetIsSpent() {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(camb(KEY, "mars-flash", "147320"), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "silent please");
        heard.await("failed:");
        assertThat(heard.events).singleElement().asString().startsWith("failed:Camb.ai:");
        assertThat(ATTEMPTS.get("silent please")).as("tried again within the budget").isBetween(2, 3);
        stream.close();
    }

    @Test
    void aStreamCutMidwayIsAskedAgainTheSentenceRestartedAndCountedOnce() {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(camb(KEY, "mars-flash", "147320"), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "breaks off here");
        heard.await("u1:done");
        assertThat(heard.of("u1", true)).containsExactly("u1:audio", "u1:restart", "u1:audio", "u1:done");
        assertThat(heard.of("u1").length).as("the whole sentence once").isBetween(3_990, 4_010);
        assertThat(ATTEMPTS.get("breaks off here")).isEqualTo(2);
        assertThat(stream.characters()).isEqualTo("breaks off here".length());
        stream.close();
    }

    @Test
    void aCancelledSentenceIsResetAtCambAndTheNextIsSpokenWhole() {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(camb(KEY, "mars-flash", "147320"), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "long answer the caller cuts short");
        heard.await("u1:audio");
        stream.cancel("u1");
        int heardOfIt = heard.of("u1").length;
        stream.speak("u2", "Sure.");
        heard.await("u2:done");
        heard.until(() -> RESET.contains("long answer the caller cuts short"), "Camb.ai saw the request reset");
        assertThat(heard.of("u1").length).as("nothing more of it").isEqualTo(heardOfIt).isLessThan(8 * 5_000);
        assertThat(heard.events).noneMatch(e -> e.equals("u1:done") || e.startsWith("failed:"));
        assertThat(heard.of("u2").length).isBetween(3_990, 4_010);
        assertThat(stream.characters()).isEqualTo("long answer the caller cuts short".length() + "Sure.".length());
        stream.close();
    }

    @Test
    void aModelOfUnknownRateOrAVoiceThatIsNotANumberIsRefusedWithTheReason() {
        assertThatThrownBy(() -> speech.open(camb(KEY, "mars-9-turbo", "147320"), AudioFormat.MULAW_8K,
                new SpeechHeard())).isInstanceOf(UnsupportedSpeechProvider.class).hasMessageContaining("mars-9-turbo");
        assertThatThrownBy(() -> speech.open(camb(KEY, "mars-flash", "Alice"), AudioFormat.MULAW_8K,
                new SpeechHeard())).isInstanceOf(UnsupportedSpeechProvider.class).hasMessageContaining("number");
        assertThat(BODIES).isEmpty();
    }

    @Test
    void theKeyIsCheckedByListingTheVoices() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(camb(KEY, "mars-flash", "147320")).await().atMost(Duration.ofSeconds(5)))
                .isEmpty();
        assertThat(CHECKS).singleElement().satisfies(r -> assertThat(r.method().name()).isEqualTo("GET"));
        assertThat(checks.problem(camb("wrong", "mars-flash", "147320")).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Invalid Camb.ai API key")
                        .contains("401", "Invalid API key"));
        assertThat(BODIES).isEmpty();
    }
}
