package dev.voiceagent.adapters.outbound.speech;

import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.adapters.outbound.speech.SpeechTestKit.Spoken;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.model.ModelService;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ElevenLabs' multi-context socket as a call speaks with it, against a local server that checks its stream-input
 * protocol (the connection's first message a single space with the voice settings and the key, each context's first
 * message its text ending with a space and the voice settings) and answers each flushed context with three pieces of
 * audio and isFinal once closed; the faults: a socket closed in the middle of a sentence, upgrades refused after it.
 */
class ElevenLabsStreamTest {

    /** One socket as the server saw it. */
    static final class Socket {
        final ServerWebSocket ws;
        final List<JsonObject> messages = new CopyOnWriteArrayList<>();
        final Map<String, StringBuilder> contexts = new LinkedHashMap<>();

        Socket(ServerWebSocket ws) {
            this.ws = ws;
        }
    }

    private static final List<String> PROBLEMS = new CopyOnWriteArrayList<>();
    private static final List<Socket> SOCKETS = new CopyOnWriteArrayList<>();
    private static final AtomicBoolean DROP = new AtomicBoolean();
    private static final AtomicInteger REFUSE = new AtomicInteger();
    private static final AtomicInteger UPGRADES = new AtomicInteger();
    private static Vertx vertx;
    private static HttpServer server;
    private static SpeechProviders speech;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(ElevenLabsStreamTest::upgrade);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        String base = "http://127.0.0.1:" + server.actualPort();
        GuardedHttp http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(800));
        speech = new SpeechProviders(http, new ProviderApis(base + "/v1", base, "v", base, base, base, "v"),
                vertx, Duration.ofMillis(800), 3, Duration.ofMillis(100), Duration.ofSeconds(1));
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        PROBLEMS.clear();
        SOCKETS.clear();
        DROP.set(false);
        REFUSE.set(0);
        UPGRADES.set(0);
    }

    private static void upgrade(HttpServerRequest request) {
        UPGRADES.incrementAndGet();
        if (!request.path().equals("/v1/text-to-speech/voice-1/multi-stream-input")
                || !"el-key".equals(request.getHeader("xi-api-key"))) {
            request.response().setStatusCode(401).end();
            return;
        }
        if (REFUSE.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            request.response().setStatusCode(503).end("{\"detail\":\"overloaded\"}");
            return;
        }
        request.toWebSocket().onSuccess(ElevenLabsStreamTest::serve);
    }

    private static final JsonObject SETTINGS = new JsonObject().put("stability", 0.5).put("similarity_boost", 0.75)
            .put("speed", 1.2);

    private static void serve(ServerWebSocket ws) {
        Socket socket = new Socket(ws);
        SOCKETS.add(socket);
        Map<String, Boolean> closeAsked = new LinkedHashMap<>();
        Map<String, Boolean> generated = new LinkedHashMap<>();
        ws.textMessageHandler(text -> {
            JsonObject m = new JsonObject(text);
            socket.messages.add(m);
            if (socket.messages.size() == 1) {
                if (!m.equals(new JsonObject().put("text", " ").put("voice_settings", SETTINGS)
                        .put("xi_api_key", "el-key"))) {
                    PROBLEMS.add("the socket's first message is not its initialisation: " + text);
                }
                return;
            }
            if (Boolean.TRUE.equals(m.getBoolean("close_socket"))) {
                ws.close();
                return;
            }
            String id = m.getString("context_id");
            if (id == null) {
                PROBLEMS.add("a message without context_id after the first: " + text);
                return;
            }
            if (m.containsKey("text")) {
                if (!socket.contexts.containsKey(id) && (!m.getString("text").endsWith(" ")
                        || !SETTINGS.equals(m.getJsonObject("voice_settings")))) {
                    PROBLEMS.add("a context's first message without its settings or final space: " + text);
                }
                socket.contexts.computeIfAbsent(id, c -> new StringBuilder()).append(m.getString("text"));
            }
            if (Boolean.TRUE.equals(m.getBoolean("flush"))) {
                String said = socket.contexts.get(id).toString().strip();
                if (said.startsWith("Drop") && DROP.compareAndSet(true, false)) {
                    audio(ws, id, 1);
                    vertx.setTimer(30, t -> ws.close((short) 1011, "internal error"));
                    return;
                }
                if (said.startsWith("Mute")) {
                    return; // its audio never comes
                }
                for (int piece = 1; piece <= 3; piece++) {
                    int value = piece;
                    vertx.setTimer(10L * piece, t -> audio(ws, id, value));
                }
                vertx.setTimer(40, t -> {
                    generated.put(id, true);
                    if (closeAsked.containsKey(id) && !ws.isClosed()) {
                        ws.writeTextMessage(new JsonObject().put("isFinal", true).put("contextId", id).encode());
                    }
                });
            }
            if (Boolean.TRUE.equals(m.getBoolean("close_context"))) {
                closeAsked.put(id, true);
                if (generated.containsKey(id)) {
                    ws.writeTextMessage(new JsonObject().put("isFinal", true).put("contextId", id).encode());
                }
            }
        });
    }

    private static void audio(ServerWebSocket ws, String context, int value) {
        if (ws.isClosed()) {
            return;
        }
        byte[] bytes = new byte[80];
        Arrays.fill(bytes, (byte) value);
        ws.writeTextMessage(new JsonObject().put("audio", Base64.getEncoder().encodeToString(bytes))
                .put("contextId", context).encode());
    }

    private static ModelEndpoint elevenlabs() {
        return new ModelEndpoint(ModelService.TTS, "elevenlabs", "eleven_flash_v2_5", null, List.of("el-key"),
                Map.of("provider", "elevenlabs", "voice", "voice-1", "speed", 1.5), false);
    }

    private static final List<String> WHOLE = List.of(":audio1", ":audio2", ":audio3", ":done");

    private static List<String> whole(String utterance) {
        return WHOLE.stream().map(e -> utterance + e).toList();
    }

    @Test
    void everySocketBeginsWithASpaceTheVoiceSettingsAndTheKeyAndEachContextWithItsSettings() throws Exception {
        Spoken heard = new Spoken();
        TextToSpeech.Stream stream = speech.open(elevenlabs(), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Hello there.");
        await(() -> heard.events.contains("u1:done"), "the sentence");
        Socket first = SOCKETS.getFirst();
        assertThat(first.messages.get(1)).isEqualTo(new JsonObject().put("text", "Hello there. ")
                .put("context_id", "u1").put("voice_settings", SETTINGS));
        assertThat(first.messages.subList(2, 4)).containsExactly(new JsonObject().put("context_id", "u1")
                .put("flush", true), new JsonObject().put("context_id", "u1").put("close_context", true));

        // an idle socket the provider closed is opened again on the next sentence, initialised again
        first.ws.close((short) 1000, "inactivity");
        Thread.sleep(300);
        assertThat(UPGRADES.get()).as("not opened again while idle").isEqualTo(1);
        stream.speak("u2", "And again.");
        await(() -> heard.events.contains("u2:done"), "the sentence on a new socket");
        assertThat(SOCKETS).hasSize(2);
        assertThat(heard.of("u1")).isEqualTo(whole("u1"));
        assertThat(heard.of("u2")).isEqualTo(whole("u2"));
        assertThat(PROBLEMS).isEmpty();
        assertThat(stream.characters()).isEqualTo("Hello there.".length() + "And again.".length());
        stream.close();
    }

    @Test
    void aSocketDroppedMidSentenceIsOpenedAgainAndEverySentenceInFlightSpokenAgainAndCountedOnce() throws Exception {
        DROP.set(true);
        Spoken heard = new Spoken();
        TextToSpeech.Stream stream = speech.open(elevenlabs(), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Drop this sentence.");
        stream.speak("u2", "Mute for a while.");
        await(() -> SOCKETS.size() == 2, "opened again");
        stream.speak("u3", "After the drop.");
        await(() -> heard.events.contains("u1:done") && heard.events.contains("u3:done"), "the sentences");
        assertThat(heard.of("u1")).as("said again from its start")
                .containsExactly("u1:audio1", "u1:restart", "u1:audio1", "u1:audio2", "u1:audio3", "u1:done");
        assertThat(heard.of("u3")).isEqualTo(whole("u3"));
        Socket second = SOCKETS.get(1);
        assertThat(second.messages.getFirst().getString("text")).isEqualTo(" ");
        assertThat(second.contexts.keySet()).as("the sentences in flight again, in order, then the next")
                .containsExactly("u1", "u2", "u3");
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));

        stream.cancel("u2"); // its audio never came: it counts nothing
        assertThat(stream.characters()).as("what was spoken, once")
                .isEqualTo("Drop this sentence.".length() + "After the drop.".length());
        assertThat(PROBLEMS).isEmpty();
        stream.close();
    }

    @Test
    void aCancelledSentenceCountsWhenSomeOfItsAudioCame() throws Exception {
        Spoken heard = new Spoken();
        TextToSpeech.Stream stream = speech.open(elevenlabs(), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Long enough to be cut.");
        await(() -> heard.events.contains("u1:audio1"), "its first audio");
        stream.cancel("u1");
        stream.speak("u2", "Fine.");
        await(() -> heard.events.contains("u2:done"), "the next");
        assertThat(stream.characters()).isEqualTo("Long enough to be cut.".length() + "Fine.".length());
        stream.close();
    }

    @Test
    void aSocketThatCannotBeOpenedAgainFailsTheStreamOnce() throws Exception {
        DROP.set(true);
        Spoken heard = new Spoken();
        TextToSpeech.Stream stream = speech.open(elevenlabs(), AudioFormat.MULAW_8K, heard);
        await(() -> SOCKETS.size() == 1, "the first socket");
        REFUSE.set(10);
        stream.speak("u1", "Drop and never come back.");
        await(() -> heard.events.stream().anyMatch(e -> e.startsWith("failed:")), "the failure");
        Thread.sleep(500);
        assertThat(heard.events.stream().filter(e -> e.startsWith("failed:")).toList()).singleElement().asString()
                .startsWith("failed:ElevenLabs").contains("503");
        assertThat(UPGRADES.get()).as("the first socket, then three tries").isEqualTo(4);
        stream.close();
    }
}
