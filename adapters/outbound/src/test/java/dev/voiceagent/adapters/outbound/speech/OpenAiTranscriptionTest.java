package dev.voiceagent.adapters.outbound.speech;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.adapters.outbound.speech.SpeechTestKit.Heard;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.Loudness;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.model.ModelService;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
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
 * OpenAI realtime transcription as a call listens with it, against a local server speaking the Realtime protocol:
 * the session asked for, audio appended in 100 ms pieces and committed at the end of a turn (a turn with no audio not
 * committed at all), deltas as interim and completed as final transcripts, an empty commit's error ignored, any other
 * error and a refused key failing the stream with OpenAI's reason; a socket the server closes in the middle of a turn
 * opened again, the session sent first and the turn's audio again, the turn transcribed once.
 */
class OpenAiTranscriptionTest {

    private static final List<JsonObject> RECEIVED = new CopyOnWriteArrayList<>();
    private static final List<List<JsonObject>> CONNECTIONS = new CopyOnWriteArrayList<>();
    private static final AtomicBoolean DROP_ON_APPEND = new AtomicBoolean();
    private static Vertx vertx;
    private static HttpServer server;
    private static SpeechProviders speech;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().webSocketHandshakeHandler(handshake -> {
            if (!"/v1/realtime".equals(handshake.path()) || !"intent=transcription".equals(handshake.query())
                    || !"Bearer sk-good".equals(handshake.headers().get("Authorization"))) {
                handshake.reject(401);
                return;
            }
            handshake.accept();
        }).webSocketHandler(ws -> {
            List<JsonObject> mine = new CopyOnWriteArrayList<>();
            CONNECTIONS.add(mine);
            ws.textMessageHandler(text -> {
            JsonObject m = new JsonObject(text);
            RECEIVED.add(m);
            mine.add(m);
            if ("input_audio_buffer.append".equals(m.getString("type")) && DROP_ON_APPEND.compareAndSet(true, false)) {
                ws.close((short) 1011, "server error");
                return;
            }
            if ("input_audio_buffer.commit".equals(m.getString("type"))) {
                long commits = RECEIVED.stream().filter(r -> "input_audio_buffer.commit".equals(r.getString("type")))
                        .count();
                if (commits == 1) {
                    ws.writeTextMessage(event("conversation.item.input_audio_transcription.delta").put("item_id", "i1")
                            .put("delta", "Where is").encode());
                    ws.writeTextMessage(event("conversation.item.input_audio_transcription.delta").put("item_id", "i1")
                            .put("delta", " my order").encode());
                    ws.writeTextMessage(event("conversation.item.input_audio_transcription.completed")
                            .put("item_id", "i1").put("transcript", "Where is my order?").encode());
                } else if (commits == 2) {
                    ws.writeTextMessage(event("error").put("error", new JsonObject().put("code",
                            "input_audio_buffer_commit_empty").put("message", "buffer too small")).encode());
                } else {
                    ws.writeTextMessage(event("error").put("error", new JsonObject().put("code", "server_error")
                            .put("message", "The server had an error")).encode());
                }
            }
            });
        });
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        String base = "http://127.0.0.1:" + server.actualPort();
        GuardedHttp http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(800));
        speech = new SpeechProviders(http, new ProviderApis(base + "/v1", base, "v", base, base, base, "v"),
                vertx, Duration.ofMillis(800), 3, Duration.ofMillis(100),
                Duration.ofSeconds(1));
    }

    private static JsonObject event(String type) {
        return new JsonObject().put("type", type).put("event_id", "ev_" + System.nanoTime());
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        RECEIVED.clear();
        CONNECTIONS.clear();
        DROP_ON_APPEND.set(false);
    }

    private static ModelEndpoint openai(String key) {
        return new ModelEndpoint(ModelService.STT, "openai", "gpt-4o-transcribe", null, List.of(key),
                Map.of("provider", "openai", "model", "gpt-4o-transcribe", "language", "en"), false);
    }

    @Test
    void aTurnIsAppendedCommittedAndTranscribedAndAnEmptyCommitIsNothingSaid() throws Exception {
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(openai("sk-good"), AudioFormat.MULAW_8K, heard);
        byte[] frame = new byte[160];
        for (int i = 0; i < 12; i++) {
            frame[0] = (byte) i;
            stream.audio(frame.clone());
        }
        stream.finalizeNow();
        heard.await("final:");
        assertThat(heard.events).containsExactly("interim:Where is", "interim:Where is my order",
                "final:Where is my order?");
        assertThat(RECEIVED.getFirst()).isEqualTo(new JsonObject().put("type", "session.update").put("session",
                new JsonObject().put("type", "transcription").put("audio", new JsonObject().put("input",
                        new JsonObject().put("format", new JsonObject().put("type", "audio/pcmu"))
                                .put("transcription", new JsonObject().put("model", "gpt-4o-transcribe")
                                        .put("language", "en")).putNull("turn_detection")))));
        List<JsonObject> appends = RECEIVED.stream().filter(m -> "input_audio_buffer.append".equals(
                m.getString("type"))).toList();
        assertThat(appends).extracting(m -> Base64.getDecoder().decode(m.getString("audio")).length)
                .as("100 ms pieces, the rest appended before the commit").containsExactly(800, 800, 320);
        assertThat(Base64.getDecoder().decode(appends.get(2).getString("audio"))[160]).as("in order").isEqualTo((byte) 11);
        assertThat(stream.seconds()).isEqualTo(0.24);

        stream.finalizeNow();
        Thread.sleep(100);
        assertThat(RECEIVED).as("no audio since the last commit: nothing to commit")
                .filteredOn(m -> "input_audio_buffer.commit".equals(m.getString("type"))).hasSize(1);
        stream.audio(frame);
        stream.finalizeNow(); // OpenAI says the buffer was too small: nothing was said
        stream.audio(frame);
        stream.finalizeNow(); // a real error
        heard.await("failed:");
        assertThat(heard.events).last().isEqualTo("failed:OpenAI: The server had an error");
        assertThat(heard.events).hasSize(4);
        stream.close();
    }

    @Test
    void aBrowsersSixteenKilohertzPcmGoesAsTheTwentyFourKilohertzPcmOpenAiTakes() throws Exception {
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(openai("sk-good"), AudioFormat.PCM_16K, heard);
        for (int i = 0; i < 10; i++) { // 200 ms of a 440 Hz tone in 20 ms frames
            short[] samples = new short[320];
            for (int k = 0; k < 320; k++) {
                samples[k] = (short) (8_000 * Math.sin(2 * Math.PI * 440 * (i * 320 + k) / 16_000.0));
            }
            stream.audio(Pcm16.bytes(samples));
        }
        stream.finalizeNow();
        heard.await("final:");
        assertThat(RECEIVED.getFirst().getJsonObject("session").getJsonObject("audio").getJsonObject("input")
                .getJsonObject("format")).isEqualTo(new JsonObject().put("type", "audio/pcm").put("rate", 24_000));
        List<byte[]> appended = RECEIVED.stream().filter(m -> "input_audio_buffer.append".equals(m.getString("type")))
                .map(m -> Base64.getDecoder().decode(m.getString("audio"))).toList();
        int bytes = appended.stream().mapToInt(a -> a.length).sum();
        // 200 ms at 24 kHz, 16-bit: 9,600 bytes, but for the resampler's ~2 ms still in its filter
        assertThat(bytes).isBetween(9_400, 9_600);
        short[] first = Pcm16.samples(appended.getFirst());
        assertThat(Loudness.dbfs(Arrays.copyOfRange(first, 200, first.length))).as("the tone, not noise or silence")
                .isBetween(-16.0, -10.0);
        assertThat(stream.seconds()).as("the caller's audio, at its own rate").isEqualTo(0.2);
        stream.close();
    }

    @Test
    void aSocketClosedMidTurnIsOpenedAgainWithTheSessionFirstAndTheWholeTurnIsTranscribedOnce() throws Exception {
        DROP_ON_APPEND.set(true);
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(openai("sk-good"), AudioFormat.MULAW_8K, heard);
        byte[] frame = new byte[160];
        for (int i = 0; i < 5; i++) {
            frame[0] = (byte) i;
            stream.audio(frame.clone());
        }
        for (int i = 0; i < 100 && CONNECTIONS.size() < 2; i++) {
            Thread.sleep(20);
        }
        assertThat(CONNECTIONS).as("opened again after the drop").hasSize(2);
        for (int i = 5; i < 12; i++) {
            frame[0] = (byte) i;
            stream.audio(frame.clone());
        }
        stream.finalizeNow();
        heard.await("final:");
        Thread.sleep(100);
        assertThat(heard.events).filteredOn(e -> !e.startsWith("interim:")).containsExactly("final:Where is my order?");
        List<JsonObject> second = CONNECTIONS.get(1);
        assertThat(second.getFirst().getString("type")).isEqualTo("session.update");
        List<byte[]> appended = second.stream().filter(m -> "input_audio_buffer.append".equals(m.getString("type")))
                .map(m -> Base64.getDecoder().decode(m.getString("audio"))).toList();
        assertThat(appended).extracting(a -> a.length).as("the turn's first piece again, then the rest")
                .containsExactly(800, 800, 320);
        assertThat(appended).extracting(a -> (int) a[0]).containsExactly(0, 5, 10);
        assertThat(second.getLast().getString("type")).isEqualTo("input_audio_buffer.commit");
        assertThat(stream.seconds()).as("the caller's audio counted once").isEqualTo(0.24);
        stream.close();
    }

    @Test
    void aRefusedKeyFailsTheStream() throws Exception {
        Heard heard = new Heard();
        speech.open(openai("sk-bad"), AudioFormat.MULAW_8K, heard);
        heard.await("failed:");
        assertThat(heard.events.getFirst()).startsWith("failed:OpenAI").contains("401");
    }
}
