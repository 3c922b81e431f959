package dev.voiceagent.adapters.outbound.speech;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.model.ModelService;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Arrays;
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
 * xAI's text-to-speech ({@code POST /v1/tts}) as the voice runtime speaks to it, against a local server that checks
 * each request (the Bearer key, the voice, the language, the call's codec and rate, the sentence) and answers as xAI
 * does: the audio streamed in pieces in the codec asked for; a refused key (401 with xAI's JSON words); a request
 * never answered; a stream cut after its first piece; a long sentence the caller interrupts.
 */
class XaiSpeechTest {

    private static final String KEY = "xai-key";
    private static final List<JsonObject> BODIES = new CopyOnWriteArrayList<>();
    private static final List<String> PROBLEMS = new CopyOnWriteArrayList<>();
    private static final Map<String, Integer> ATTEMPTS = new ConcurrentHashMap<>();
    private static final Set<String> RESET = ConcurrentHashMap.newKeySet();
    private static Vertx vertx;
    private static HttpServer server;
    private static SpeechProviders speech;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(XaiSpeechTest::xai);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        String base = "http://127.0.0.1:" + server.actualPort();
        GuardedHttp http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(400));
        ProviderApis apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v")
                .pointing("xai", base + "/v1");
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
        ATTEMPTS.clear();
        RESET.clear();
    }

    /**
     * xAI: "silent ..." is never answered, "breaks ..." is cut after its first piece the first time, "long ..."
     * streams for seconds; any other sentence is three pieces of 160 bytes (1, 2, 3) in the codec asked for.
     */
    private static void xai(HttpServerRequest request) {
        if (!"POST".equals(request.method().name()) || !"/v1/tts".equals(request.path())) {
            PROBLEMS.add(request.method() + " " + request.path());
            request.response().setStatusCode(404).end();
            return;
        }
        if (!("Bearer " + KEY).equals(request.getHeader("Authorization"))) {
            request.response().setStatusCode(401).putHeader("Content-Type", "application/json")
                    .end("{\"code\":\"Client specified an invalid argument\",\"error\":\"Incorrect API key provided:"
                            + " wr***ey. You can obtain an API key from https://console.x.ai.\"}");
            return;
        }
        request.body().onSuccess(body -> {
            JsonObject json = body.toJsonObject();
            BODIES.add(json);
            if (!request.getHeader("Content-Type").startsWith("application/json")
                    || !request.getHeader("Accept").startsWith("audio/")) {
                PROBLEMS.add("headers " + request.headers());
            }
            String text = json.getString("text", "");
            int attempt = ATTEMPTS.merge(text, 1, Integer::sum);
            HttpServerResponse response = request.response();
            if (text.startsWith("silent")) {
                return;
            }
            response.setChunked(true).putHeader("Content-Type", "audio/basic");
            response.closeHandler(v -> RESET.add(text));
            vertx.setTimer(20, t -> {
                response.write(piece(1));
                if (text.startsWith("breaks") && attempt == 1) {
                    vertx.setTimer(20, c -> request.connection().close());
                    return;
                }
                int pieces = text.startsWith("long") ? 100 : 3;
                vertx.setPeriodic(15, id -> {
                    if (response.closed()) {
                        vertx.cancelTimer(id);
                    } else if (response.bytesWritten() / 160 >= pieces) {
                        vertx.cancelTimer(id);
                        response.end();
                    } else {
                        response.write(piece((byte) (response.bytesWritten() / 160 + 1)));
                    }
                });
            });
        });
    }

    private static Buffer piece(int value) {
        byte[] bytes = new byte[160];
        Arrays.fill(bytes, (byte) value);
        return Buffer.buffer(bytes);
    }

    private static ModelEndpoint xai(String key, String language) {
        return new ModelEndpoint(ModelService.TTS, "xai", null, null, List.of(key), Map.of("provider", "xai",
                "voice", "eve", "language", language), false);
    }

    private static byte[] expected(int pieces) {
        byte[] bytes = new byte[160 * pieces];
        for (int i = 0; i < pieces; i++) {
            Arrays.fill(bytes, 160 * i, 160 * (i + 1), (byte) (i + 1));
        }
        return bytes;
    }

    @Test
    void eachSentenceIsARequestInTheCallsCodecItsAudioHandedOnInOrder() {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(xai(KEY, "en"), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Hello there.");
        stream.speak("u2", "How can I help?");
        heard.await("u1:done");
        heard.await("u2:done");
        assertThat(PROBLEMS).isEmpty();
        assertThat(heard.of("u1")).isEqualTo(expected(3));
        assertThat(heard.of("u2")).isEqualTo(expected(3));
        assertThat(heard.of("u1", true)).containsExactly("u1:audio", "u1:done");
        assertThat(BODIES).extracting(b -> b.getString("text")).containsExactlyInAnyOrder("Hello there.",
                "How can I help?");
        assertThat(BODIES).allSatisfy(b -> assertThat(b.copy().put("text", "")).isEqualTo(new JsonObject()
                .put("text", "").put("voice_id", "eve").put("language", "en")
                .put("output_format", new JsonObject().put("codec", "mulaw").put("sample_rate", 8_000))));
        assertThat(stream.characters()).isEqualTo("Hello there.".length() + "How can I help?".length());
        stream.close();
    }

    @Test
    void aBrowserCallAsksForRawPcmAt16kHz() {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(xai(KEY, "auto"), AudioFormat.PCM_16K, heard);
        stream.speak("u1", "Bonjour.");
        heard.await("u1:done");
        assertThat(BODIES).singleElement().satisfies(b -> {
            assertThat(b.getJsonObject("output_format")).isEqualTo(new JsonObject().put("codec", "pcm")
                    .put("sample_rate", 16_000));
            assertThat(b.getString("language")).isEqualTo("auto");
        });
        stream.close();
    }

    @Test
    void aRefusedKeyFailsTheStreamWithXaisWordsAndIsNotAskedAgain() throws Exception {
        SpeechHeard heard = new SpeechHeard();
        speech.open(xai("wrong-key", "en"), AudioFormat.MULAW_8K, heard).speak("u1", "Hello.");
        heard.await("failed:");
        assertThat(heard.events).singleElement().asString().startsWith("failed:xAI: HTTP 401")
                .contains("Incorrect API key provided");
        Thread.sleep(300); // a second try would have come by now (backoff 100 ms)
        assertThat(heard.events).hasSize(1);
        assertThat(BODIES).isEmpty();
    }

    @Test
    void aProviderThatNeverAnswersFailsTheStreamOnceTheBudgetIsSpent() {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(xai(KEY, "en"), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "silent please");
        heard.await("failed:");
        assertThat(heard.events).singleElement().asString().startsWith("failed:xAI:");
        assertThat(ATTEMPTS.get("silent please")).as("tried again within the budget").isBetween(2, 3);
        stream.close();
    }

    @Test
    void aStreamCutMidwayIsAskedAgainTheSentenceRestartedAndCountedOnce() {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(xai(KEY, "en"), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "breaks off here");
        heard.await("u1:done");
        assertThat(heard.of("u1", true)).containsExactly("u1:audio", "u1:restart", "u1:audio", "u1:done");
        assertThat(heard.of("u1")).as("the whole sentence once, after the restart").isEqualTo(expected(3));
        assertThat(ATTEMPTS.get("breaks off here")).isEqualTo(2);
        assertThat(stream.characters()).isEqualTo("breaks off here".length());
        stream.close();
    }

    @Test
    void aCancelledSentenceIsResetAtXaiAndTheNextIsSpokenWhole() {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(xai(KEY, "en"), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "long answer the caller cuts short");
        heard.await("u1:audio");
        stream.cancel("u1");
        int heardOfIt = heard.of("u1").length;
        stream.speak("u2", "Sure.");
        heard.await("u2:done");
        heard.until(() -> RESET.contains("long answer the caller cuts short"), "xAI saw the request reset");
        assertThat(heard.of("u1").length).as("nothing more of it").isEqualTo(heardOfIt).isLessThan(160 * 100);
        assertThat(heard.events).noneMatch(e -> e.equals("u1:done"));
        assertThat(heard.of("u2")).isEqualTo(expected(3));
        assertThat(stream.characters()).as("the cut sentence counts: some of it was heard")
                .isEqualTo("long answer the caller cuts short".length() + "Sure.".length());
        stream.close();
    }
}
