package dev.voiceagent.adapters.outbound.speech;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.adapters.outbound.speech.SpeechTestKit.Spoken;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.voice.HeardText;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
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
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Cartesia's TTS WebSocket as the voice runtime speaks to it, against a local server that checks the handshake's
 * headers and each request, and answers as Cartesia does: chunk messages of raw μ-law, word timestamps in seconds,
 * done; an error message; a refused handshake; a cancelled context whose late audio must not be heard; a socket
 * closed in the middle of a sentence.
 */
class CartesiaStreamTest {

    private static final String VOICE = "3faa81ae-d3d8-4ab1-9e44-e50e46d33c30";
    private static final List<String> PROBLEMS = new CopyOnWriteArrayList<>();
    private static final List<JsonObject> RECEIVED = new CopyOnWriteArrayList<>();
    private static final AtomicBoolean DROP = new AtomicBoolean();
    private static final AtomicInteger SOCKETS = new AtomicInteger();
    private static Vertx vertx;
    private static HttpServer server;
    private static SpeechProviders speech;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().webSocketHandshakeHandler(handshake -> {
            boolean keyed = "ca-key".equals(handshake.headers().get("X-API-Key"));
            if (!"/tts/websocket".equals(handshake.path()) || !keyed) {
                handshake.reject(keyed ? 404 : 401);
                return;
            }
            if (!"2025-04-16".equals(handshake.headers().get("Cartesia-Version"))) {
                PROBLEMS.add("Cartesia-Version " + handshake.headers().get("Cartesia-Version"));
            }
            handshake.accept();
        }).webSocketHandler(CartesiaStreamTest::cartesia);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        String base = "http://127.0.0.1:" + server.actualPort();
        GuardedHttp http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(800));
        speech = new SpeechProviders(http, new ProviderApis(base + "/v1", base, "v", base, base, base, "2025-04-16"), vertx, Duration.ofMillis(800), 3, Duration.ofMillis(100),
                Duration.ofSeconds(1));
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        PROBLEMS.clear();
        RECEIVED.clear();
        DROP.set(false);
        SOCKETS.set(0);
    }

    /** Cartesia: each request is checked; "Stop ..." sentences wait for their cancel and then answer anyway. */
    private static void cartesia(ServerWebSocket ws) {
        SOCKETS.incrementAndGet();
        ws.textMessageHandler(text -> {
            JsonObject m = new JsonObject(text);
            RECEIVED.add(m);
            String context = m.getString("context_id");
            if (Boolean.TRUE.equals(m.getBoolean("cancel"))) {
                audio(ws, context, 3); // what was in flight when the cancel came: to be dropped
                ws.writeTextMessage(new JsonObject().put("type", "done").put("context_id", context).encode());
                return;
            }
            JsonObject format = m.getJsonObject("output_format", new JsonObject());
            if (!"raw".equals(format.getString("container")) || !"pcm_mulaw".equals(format.getString("encoding"))
                    || format.getInteger("sample_rate", 0) != 8_000 || !Boolean.FALSE.equals(m.getBoolean("continue"))
                    || !"sonic-3.5".equals(m.getString("model_id"))
                    || !VOICE.equals(m.getJsonObject("voice", new JsonObject()).getString("id"))
                    || !"id".equals(m.getJsonObject("voice", new JsonObject()).getString("mode"))) {
                PROBLEMS.add("request " + text);
            }
            String transcript = m.getString("transcript", "");
            if (transcript.startsWith("Drop") && DROP.compareAndSet(true, false)) {
                audio(ws, context, 1); // its first audio, then the socket is gone
                vertx.setTimer(30, t -> ws.close((short) 1011, "server error"));
                return;
            }
            if (transcript.startsWith("Bad")) {
                ws.writeTextMessage(new JsonObject().put("type", "error").put("context_id", context)
                        .put("error", "Invalid voice").put("status_code", 400).encode());
                return;
            }
            audio(ws, context, 1);
            if (transcript.startsWith("Stop")) {
                return; // the rest comes after the cancel
            }
            String[] words = transcript.strip().split(" ");
            JsonArray starts = new JsonArray();
            JsonArray ends = new JsonArray();
            for (int i = 0; i < words.length; i++) {
                starts.add(i * 0.3);
                ends.add(i * 0.3 + 0.25);
            }
            ws.writeTextMessage(new JsonObject().put("type", "timestamps").put("context_id", context)
                    .put("word_timestamps", new JsonObject().put("words", new JsonArray(List.of((Object[]) words)))
                            .put("start", starts).put("end", ends)).encode());
            audio(ws, context, 2);
            ws.writeTextMessage(new JsonObject().put("type", "done").put("context_id", context).encode());
        });
    }

    private static void audio(ServerWebSocket ws, String context, int value) {
        byte[] bytes = new byte[160];
        Arrays.fill(bytes, (byte) value);
        ws.writeTextMessage(new JsonObject().put("type", "chunk").put("context_id", context).put("done", false)
                .put("data", Base64.getEncoder().encodeToString(bytes)).encode());
    }

    private static ModelEndpoint cartesia(String key) {
        return new ModelEndpoint(ModelService.TTS, "cartesia", "sonic-3.5", null, List.of(key), Map.of("provider",
                "cartesia", "model", "sonic-3.5", "voice", VOICE, "language", "en", "speed", 1.0), false);
    }

    @Test
    void eachSentenceIsAContextWhoseAudioWordsAndEndComeBackToIt() throws Exception {
        Spoken heard = new Spoken();
        TextToSpeech.Stream stream = speech.open(cartesia("ca-key"), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Hello there.");
        stream.speak("u2", "How can I help?");
        heard.await("u2:done");
        heard.await("u1:done");
        assertThat(PROBLEMS).isEmpty();
        assertThat(heard.events.stream().filter(e -> e.startsWith("u1")).toList())
                .containsExactly("u1:audio1", "u1:audio2", "u1:done");
        assertThat(heard.events.stream().filter(e -> e.startsWith("u2")).toList())
                .containsExactly("u2:audio1", "u2:audio2", "u2:done");
        assertThat(heard.words).extracting(HeardText.Word::text).containsExactlyInAnyOrder("Hello", "there.", "How",
                "can", "I", "help?");
        assertThat(heard.words).filteredOn(w -> w.text().equals("help?")).singleElement()
                .satisfies(w -> assertThat(w.startMs()).isEqualTo(900));
        assertThat(RECEIVED).extracting(m -> m.getString("transcript")).containsExactly("Hello there. ",
                "How can I help? ");
        assertThat(RECEIVED.getFirst().getString("language")).isEqualTo("en");
        assertThat(RECEIVED.getFirst().containsKey("generation_config")).as("speed 1.0 is the default").isFalse();
        assertThat(stream.characters()).isEqualTo("Hello there.".length() + "How can I help?".length());
        stream.close();
    }

    @Test
    void aCancelledSentenceIsStoppedAtCartesiaAndNothingMoreOfItIsHeard() throws Exception {
        Spoken heard = new Spoken();
        TextToSpeech.Stream stream = speech.open(cartesia("ca-key"), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Stop me if you have heard this one before.");
        heard.await("u1:audio1");
        stream.cancel("u1");
        for (int i = 0; i < 50 && RECEIVED.stream().noneMatch(m -> m.containsKey("cancel")); i++) {
            Thread.sleep(20);
        }
        stream.speak("u2", "Of course.");
        heard.await("u2:done");
        assertThat(RECEIVED).anySatisfy(m -> assertThat(m).isEqualTo(new JsonObject().put("context_id", "u1")
                .put("cancel", true)));
        assertThat(heard.events).as("the cut sentence's late audio and its done are dropped")
                .containsExactly("u1:audio1", "u2:audio1", "u2:audio2", "u2:done");
        stream.close();
    }

    @Test
    void aRefusedKeyAndAnErrorFailTheStreamWithCartesiasReason() throws Exception {
        Spoken refused = new Spoken();
        speech.open(cartesia("wrong-key"), AudioFormat.MULAW_8K, refused).speak("u1", "Hello.");
        refused.await("failed:");
        assertThat(refused.events.getFirst()).startsWith("failed:Cartesia").contains("401");

        Spoken error = new Spoken();
        TextToSpeech.Stream stream = speech.open(cartesia("ca-key"), AudioFormat.MULAW_8K, error);
        stream.speak("u1", "Bad voice here.");
        error.await("failed:");
        assertThat(error.events).containsExactly("failed:Cartesia: Invalid voice (400)");
        stream.close();
    }

    @Test
    void speedAndVolumeOtherThanTheDefaultsGoInTheGenerationConfig() throws Exception {
        Spoken heard = new Spoken();
        Map<String, Object> settings = new HashMap<>(cartesia("ca-key").settings());
        settings.put("speed", 1.2);
        settings.put("volume", 0.8);
        TextToSpeech.Stream stream = speech.open(new ModelEndpoint(ModelService.TTS, "cartesia", "sonic-3.5", null,
                List.of("ca-key"), settings, false), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Quickly now.");
        heard.await("u1:done");
        assertThat(RECEIVED.getFirst().getJsonObject("generation_config"))
                .isEqualTo(new JsonObject().put("speed", 1.2).put("volume", 0.8));
        stream.close();
    }

    @Test
    void aSocketDroppedMidSentenceIsOpenedAgainAndItsSentencesSpokenAgainEachCountedOnce() throws Exception {
        DROP.set(true);
        Spoken heard = new Spoken();
        TextToSpeech.Stream stream = speech.open(cartesia("ca-key"), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Drop this line.");
        heard.await("u1:audio1");
        stream.speak("u2", "Then this one.");
        heard.await("u1:done");
        heard.await("u2:done");
        stream.speak("u3", "And one more.");
        heard.await("u3:done");
        assertThat(SOCKETS.get()).as("opened again once").isEqualTo(2);
        assertThat(heard.events.stream().filter(e -> e.startsWith("u1")).toList())
                .containsExactly("u1:audio1", "u1:restart", "u1:audio1", "u1:audio2", "u1:done");
        assertThat(heard.events.stream().filter(e -> e.startsWith("u2")).toList()).as("none lost")
                .containsExactly("u2:audio1", "u2:audio2", "u2:done");
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
        assertThat(RECEIVED).extracting(m -> m.getString("context_id")).filteredOn("u1"::equals).hasSize(2);
        assertThat(stream.characters()).as("each sentence once")
                .isEqualTo("Drop this line.".length() + "Then this one.".length() + "And one more.".length());
        assertThat(PROBLEMS).isEmpty();
        stream.close();
    }

    @Test
    void aCancelledSentenceCountsOnlyWhenSomeOfItsAudioCame() throws Exception {
        Spoken heard = new Spoken();
        TextToSpeech.Stream stream = speech.open(cartesia("ca-key"), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Stop me if you have heard this one before.");
        heard.await("u1:audio1");
        stream.cancel("u1");
        stream.speak("u2", "Never mind.");
        stream.cancel("u2"); // before any of its audio
        stream.speak("u3", "Of course.");
        heard.await("u3:done");
        assertThat(stream.characters())
                .isEqualTo("Stop me if you have heard this one before.".length() + "Of course.".length());
        stream.close();
    }
}
