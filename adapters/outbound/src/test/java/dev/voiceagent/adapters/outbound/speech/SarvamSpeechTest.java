package dev.voiceagent.adapters.outbound.speech;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.adapters.outbound.ProviderChecks;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sarvam's streaming text-to-speech WebSocket as the voice runtime speaks to it, against a local server that checks
 * the upgrade (path, model, completion events, the key header) and every message (config first on each socket, then
 * text and flush per sentence, one sentence at a time), and answers as Sarvam does: audio messages in base64, the
 * final event; an error message; a refused key; an upgrade never answered; a socket dropped mid-sentence; a sentence
 * interrupted (Sarvam has no cancel: its socket is closed and another opened); pings; and the key check.
 */
class SarvamSpeechTest {

    private static final String KEY = "sv-key";

    /** One socket as the server saw it: its upgrade and every message, in order. */
    record Socket(ServerWebSocket ws, String path, MultiMap params, List<JsonObject> messages) {
    }

    private static final List<Socket> SOCKETS = new CopyOnWriteArrayList<>();
    private static final List<String> UPGRADES = new CopyOnWriteArrayList<>();
    private static final List<String> PROBLEMS = new CopyOnWriteArrayList<>();
    private static final List<HttpServerRequest> CHECKS = new CopyOnWriteArrayList<>();
    private static final AtomicBoolean HANG = new AtomicBoolean();
    private static final AtomicBoolean DROP = new AtomicBoolean();
    private static Vertx vertx;
    private static HttpServer server;
    private static GuardedHttp http;
    private static ProviderApis apis;
    private static SpeechProviders speech;
    private static String base;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(SarvamSpeechTest::request);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + server.actualPort();
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(400));
        apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v").pointing("sarvam", base);
        speech = new SpeechProviders(http, apis, vertx, Duration.ofMillis(400), 3, Duration.ofMillis(100),
                Duration.ofSeconds(1));
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        SOCKETS.clear();
        UPGRADES.clear();
        PROBLEMS.clear();
        CHECKS.clear();
        HANG.set(false);
        DROP.set(false);
    }

    private static void request(HttpServerRequest request) {
        boolean keyed = KEY.equals(request.getHeader("api-subscription-key"));
        if (request.path().equals("/voices")) {
            CHECKS.add(request);
            request.response().setStatusCode(keyed ? 200 : 403).putHeader("Content-Type", "application/json")
                    .end(keyed ? "{\"status\":\"success\",\"data\":{\"voices\":[]}}"
                            : "{\"error\":{\"message\":\"Invalid API key\",\"code\":\"invalid_api_key_error\"}}");
            return;
        }
        UPGRADES.add(request.path());
        if (HANG.get()) {
            request.pause(); // never answered: the client's time limit runs out
            return;
        }
        if (!keyed) {
            request.response().setStatusCode(403).putHeader("Content-Type", "application/json")
                    .end("{\"error\":{\"message\":\"Invalid API key\",\"code\":\"invalid_api_key_error\"}}");
            return;
        }
        String path = request.path();
        MultiMap params = MultiMap.caseInsensitiveMultiMap().addAll(request.params());
        request.toWebSocket().onSuccess(ws -> sarvam(new Socket(ws, path, params, new CopyOnWriteArrayList<>())));
    }

    /**
     * Sarvam: a sentence's text and flush answered with three audio messages (1, 2, 3) and the final event; "Stop ..."
     * keeps sending audio until its socket closes; "Bad ..." is an error; "Drop ..." (when asked) closes the socket
     * after its first audio.
     */
    private static void sarvam(Socket socket) {
        SOCKETS.add(socket);
        StringBuilder text = new StringBuilder();
        socket.ws().textMessageHandler(message -> {
            JsonObject m = new JsonObject(message);
            socket.messages().add(m);
            String type = m.getString("type");
            if (socket.messages().size() == 1 && !"config".equals(type)) {
                PROBLEMS.add("first message " + message);
            }
            if ("text".equals(type)) {
                text.append(m.getJsonObject("data").getString("text"));
            } else if ("flush".equals(type)) {
                String sentence = text.toString();
                text.setLength(0);
                answer(socket.ws(), sentence);
            }
        });
    }

    private static void answer(ServerWebSocket ws, String sentence) {
        if (sentence.startsWith("Bad")) {
            ws.writeTextMessage(new JsonObject().put("type", "error").put("data", new JsonObject()
                    .put("message", "Text contains unsupported characters").put("code", 422)).encode());
            return;
        }
        vertx.setTimer(20, t -> {
            audio(ws, 1);
            if (sentence.startsWith("Drop") && DROP.compareAndSet(true, false)) {
                vertx.setTimer(20, c -> ws.close((short) 1011, "internal error"));
                return;
            }
            int[] sent = {1};
            int pieces = sentence.startsWith("Stop") ? 200 : 3;
            vertx.setPeriodic(15, id -> {
                if (ws.isClosed()) {
                    vertx.cancelTimer(id);
                } else if (sent[0] == pieces) {
                    vertx.cancelTimer(id);
                    ws.writeTextMessage(new JsonObject().put("type", "event").put("data", new JsonObject()
                            .put("event_type", "final")).encode());
                } else {
                    audio(ws, ++sent[0]);
                }
            });
        });
    }

    private static void audio(ServerWebSocket ws, int value) {
        byte[] bytes = new byte[160];
        Arrays.fill(bytes, (byte) value);
        ws.writeTextMessage(new JsonObject().put("type", "audio").put("data", new JsonObject()
                .put("content_type", "audio/basic").put("request_id", "r-1")
                .put("audio", Base64.getEncoder().encodeToString(bytes))).encode());
    }

    private static ModelEndpoint sarvam(String key, Double speed) {
        Map<String, Object> settings = new HashMap<>(Map.of("provider", "sarvam", "model", "bulbul:v2", "voice",
                "anushka", "language", "hi-IN"));
        if (speed != null) {
            settings.put("speed", speed);
        }
        return new ModelEndpoint(ModelService.TTS, "sarvam", "bulbul:v2", null, List.of(key), settings, false);
    }

    private static byte[] expected(int pieces) {
        byte[] bytes = new byte[160 * pieces];
        for (int i = 0; i < pieces; i++) {
            Arrays.fill(bytes, 160 * i, 160 * (i + 1), (byte) (i + 1));
        }
        return bytes;
    }

    private static List<String> types(Socket socket) {
        return socket.messages().stream().map(m -> m.getString("type")).filter(t -> !"ping".equals(t)).toList();
    }

    @Test
    void sentencesGoOneAtATimeOnAConfiguredSocketTheirAudioInOrder() {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(sarvam(KEY, 1.25), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Namaste.");
        stream.speak("u2", "Aap kaise hain?");
        heard.await("u2:done");
        assertThat(PROBLEMS).isEmpty();
        assertThat(SOCKETS).singleElement().satisfies(socket -> {
            assertThat(socket.path()).isEqualTo("/text-to-speech/ws");
            assertThat(socket.params().get("model")).isEqualTo("bulbul:v2");
            assertThat(socket.params().get("send_completion_event")).isEqualTo("true");
            assertThat(socket.messages().getFirst()).isEqualTo(new JsonObject().put("type", "config").put("data",
                    new JsonObject().put("target_language_code", "hi-IN").put("speaker", "anushka")
                            .put("speech_sample_rate", "8000").put("output_audio_codec", "mulaw")
                            .put("pace", 1.25)));
            assertThat(types(socket)).containsExactly("config", "text", "flush", "text", "flush");
            assertThat(socket.messages().stream().filter(m -> "text".equals(m.getString("type")))
                    .map(m -> m.getJsonObject("data").getString("text"))).containsExactly("Namaste.",
                            "Aap kaise hain?");
        });
        assertThat(heard.events.stream().filter(e -> !e.endsWith(":audio")))
                .as("the second sentence only after the first's final").containsExactly("u1:done", "u2:done");
        assertThat(heard.of("u1")).isEqualTo(expected(3));
        assertThat(heard.of("u2")).isEqualTo(expected(3));
        assertThat(stream.characters()).isEqualTo("Namaste.".length() + "Aap kaise hain?".length());
        stream.close();
    }

    @Test
    void aBrowserCallAsksForLinear16At16kHzAndNoPaceWhenNoneIsSet() {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(sarvam(KEY, null), AudioFormat.PCM_16K, heard);
        stream.speak("u1", "Namaste.");
        heard.await("u1:done");
        assertThat(SOCKETS.getFirst().messages().getFirst().getJsonObject("data")).isEqualTo(new JsonObject()
                .put("target_language_code", "hi-IN").put("speaker", "anushka").put("speech_sample_rate", "16000")
                .put("output_audio_codec", "linear16"));
        stream.close();
    }

    @Test
    void aRefusedKeyFailsTheStreamWithSarvamsWordsAndNoSecondTry() throws Exception {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(sarvam("wrong", null), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Namaste.");
        heard.await("failed:");
        assertThat(heard.events).singleElement().asString().startsWith("failed:Sarvam: Could not reach")
                .contains("403", "Invalid API key");
        Thread.sleep(300);
        assertThat(UPGRADES).hasSize(1);
        stream.close();
    }

    @Test
    void anUpgradeNeverAnsweredIsTriedAgainWithinTheBudgetThenFails() {
        HANG.set(true);
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(sarvam(KEY, null), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Namaste.");
        heard.await("failed:");
        assertThat(heard.events).singleElement().asString().startsWith("failed:Sarvam: Could not reach");
        assertThat(UPGRADES.size()).as("tried again within the budget").isBetween(2, 3);
        stream.close();
    }

    @Test
    void anErrorMessageMidSentenceFailsTheStreamWithSarvamsWords() {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(sarvam(KEY, null), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Namaste.");
        stream.speak("u2", "Bad text here.");
        heard.await("failed:");
        assertThat(heard.events.stream().filter(e -> !e.endsWith(":audio"))).containsExactly("u1:done",
                "failed:Sarvam: Text contains unsupported characters (422)");
        stream.speak("u3", "After.");
        assertThat(stream.characters()).isEqualTo("Namaste.".length());
        stream.close();
    }

    @Test
    void aSocketDroppedMidSentenceIsOpenedAgainConfiguredAndTheSentenceSpokenAgainOnce() {
        DROP.set(true);
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(sarvam(KEY, null), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Drop this line.");
        stream.speak("u2", "Then this one.");
        heard.await("u2:done");
        assertThat(SOCKETS).hasSize(2);
        assertThat(types(SOCKETS.get(1))).containsExactly("config", "text", "flush", "text", "flush");
        assertThat(heard.of("u1", true)).containsExactly("u1:audio", "u1:restart", "u1:audio", "u1:done");
        assertThat(heard.of("u1")).isEqualTo(expected(3));
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
        assertThat(stream.characters()).isEqualTo("Drop this line.".length() + "Then this one.".length());
        stream.close();
    }

    @Test
    void aCancelledSentenceClosesItsSocketAndTheNextIsSpokenOnAFreshOne() {
        SpeechHeard heard = new SpeechHeard();
        TextToSpeech.Stream stream = speech.open(sarvam(KEY, null), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Stop me if you have heard this one.");
        stream.speak("u2", "Never mind.");
        heard.await("u1:audio");
        stream.cancel("u2"); // waiting: never sent
        stream.cancel("u1");
        int heardOfIt = heard.of("u1").length;
        stream.speak("u3", "Of course.");
        heard.await("u3:done");
        heard.until(() -> SOCKETS.getFirst().ws().isClosed(), "the first socket closed");
        assertThat(heard.of("u1").length).as("nothing more of it").isEqualTo(heardOfIt);
        assertThat(heard.events).noneMatch(e -> e.startsWith("u1:done") || e.startsWith("u2:"));
        assertThat(SOCKETS).hasSize(2);
        assertThat(types(SOCKETS.get(1))).containsExactly("config", "text", "flush");
        assertThat(SOCKETS.get(1).messages().get(1).getJsonObject("data").getString("text")).isEqualTo("Of course.");
        assertThat(heard.of("u3")).isEqualTo(expected(3));
        assertThat(stream.characters()).as("the cut sentence counts (some was heard), the one never sent does not")
                .isEqualTo("Stop me if you have heard this one.".length() + "Of course.".length());
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
        stream.close();
    }

    @Test
    void anOpenSocketIsPinged() {
        SpeechHeard heard = new SpeechHeard();
        String url = SpeechProviders.websocket(base) + "/text-to-speech/ws?model=bulbul%3Av2";
        RetryBudget budget = new RetryBudget(3, Duration.ofMillis(100), Duration.ofSeconds(1));
        SarvamStream stream = new SarvamStream(() -> http.webSocket(url, Map.of("api-subscription-key", KEY),
                Duration.ofMillis(400), false), vertx, budget,
                SarvamStream.config("anushka", "hi-IN", null, AudioFormat.MULAW_8K), Duration.ofMillis(50), heard);
        heard.until(() -> !SOCKETS.isEmpty() && SOCKETS.getFirst().messages().stream()
                .filter(m -> "ping".equals(m.getString("type"))).count() >= 2, "two pings");
        assertThat(SOCKETS.getFirst().messages().getFirst().getString("type")).isEqualTo("config");
        stream.close();
    }

    @Test
    void theKeyIsCheckedByListingAVoiceNoSocketOpened() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(sarvam(KEY, null)).await().atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(CHECKS).singleElement().satisfies(r -> {
            assertThat(r.method().name()).isEqualTo("GET");
            assertThat(r.query()).isEqualTo("limit=1");
        });
        assertThat(checks.problem(sarvam("wrong", null)).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Invalid Sarvam API key")
                        .contains("403", "Invalid API key"));
        assertThat(UPGRADES).isEmpty();
    }
}
