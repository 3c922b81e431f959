package dev.voiceagent.adapters.outbound.speech;

import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.adapters.outbound.ProviderChecks;
import dev.voiceagent.adapters.outbound.speech.SpeechTestKit.Spoken;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.voice.HeardText;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rime's JSON WebSocket ({@code /ws3}) as the voice runtime speaks to it, against a local server that answers as Rime
 * does and checks what it is sent: the key as a Bearer token, voice, model, format, rate, {@code segment=never} and
 * language in the query; a sentence's text with its context then a flush, the next sentence only after the last one's
 * done; chunk messages of base64 audio (PCM cut mid-sample, as Rime cuts it), word timestamps in seconds with
 * punctuation as words of its own, done. And the faults: a refused key (401 at the upgrade, no second try), upgrades
 * that are never answered (time-outs), an error message mid-stream, a socket dropped mid-sentence, a cancelled sentence
 * (clear) whose late audio must not be heard and that must not hold up the next; and the key check.
 */
class RimeStreamTest {

    private static final String KEY = "rime-key";
    /** Every upgrade asked for: its path, Authorization and query. */
    private static final List<HttpServerRequest> UPGRADES = new CopyOnWriteArrayList<>();
    /** What the server received and sent, in order: "text:u1", "flush", "clear", "done:u1" (sent). */
    private static final List<String> LOG = new CopyOnWriteArrayList<>();
    private static final AtomicBoolean DROP = new AtomicBoolean();
    private static Vertx vertx;
    private static GuardedHttp http;
    private static ProviderApis apis;
    private static SpeechProviders speech;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        HttpServer server = vertx.createHttpServer().requestHandler(RimeStreamTest::upgrade);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        String base = "http://127.0.0.1:" + server.actualPort();
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(800));
        apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v").pointing("rime", base);
        speech = new SpeechProviders(http, apis, vertx, Duration.ofMillis(800), 3, Duration.ofMillis(100),
                Duration.ofSeconds(1));
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        UPGRADES.clear();
        LOG.clear();
        DROP.set(false);
    }

    /** Rime's upgrade: the key checked there (401 and its plain-text reason), or, for "hang-key", never answered. */
    private static void upgrade(HttpServerRequest request) {
        UPGRADES.add(request);
        String authorization = request.getHeader("Authorization");
        if ("Bearer hang-key".equals(authorization)) {
            request.pause();
            return;
        }
        if (!("Bearer " + KEY).equals(authorization)) {
            request.response().setStatusCode(401).end("invalid api key");
            return;
        }
        if (!"/ws3".equals(request.path())) {
            request.response().setStatusCode(404).end();
            return;
        }
        boolean pcm = "pcm".equals(request.getParam("audioFormat"));
        request.toWebSocket().onSuccess(ws -> serve(ws, pcm));
    }

    /**
     * Rime with segment=never: text is buffered under its context until a flush. "Drop ..." sentences lose the socket
     * after their first chunk (once), "Bad ..." ones get an error, "Stop ..." ones wait after their first chunk for a
     * clear (then send what was in flight, which must be dropped).
     */
    private static void serve(ServerWebSocket ws, boolean pcm) {
        String[] buffered = {"", null};
        ws.textMessageHandler(text -> {
            JsonObject m = new JsonObject(text);
            if (m.containsKey("text")) {
                LOG.add("text:" + m.getString("contextId"));
                buffered[0] += m.getString("text");
                buffered[1] = m.getString("contextId");
                return;
            }
            String operation = m.getString("operation");
            LOG.add(operation);
            if ("clear".equals(operation)) {
                if (buffered[1] != null && buffered[0].startsWith("Stop")) {
                    chunk(ws, buffered[1], 3, pcm); // in flight when the clear came
                    done(ws, buffered[1]);
                }
                buffered[0] = "";
                return;
            }
            if (!"flush".equals(operation)) {
                return;
            }
            String context = buffered[1];
            String sentence = buffered[0];
            if (sentence.startsWith("Drop") && DROP.compareAndSet(true, false)) {
                chunk(ws, context, 1, pcm);
                vertx.setTimer(30, t -> ws.close((short) 1011, "server error"));
                return;
            }
            if (sentence.startsWith("Bad")) {
                ws.writeTextMessage(new JsonObject().put("type", "error")
                        .put("message", "speaker 'nobody' is not a valid arcana voice").encode());
                return;
            }
            chunk(ws, context, 1, pcm);
            if (sentence.startsWith("Stop")) {
                return; // the rest comes after the clear
            }
            buffered[0] = "";
            JsonArray words = new JsonArray();
            JsonArray starts = new JsonArray();
            JsonArray ends = new JsonArray();
            int i = 0;
            for (String word : sentence.strip().split(" ")) { // the end mark as a word of its own
                String bare = word.replaceAll("[.?!]$", "");
                words.add(bare);
                starts.add(i * 0.3);
                ends.add(i * 0.3 + 0.25);
                i++;
                if (!bare.equals(word)) {
                    words.add(word.substring(bare.length()));
                    starts.add(i * 0.3 - 0.05);
                    ends.add(i * 0.3 - 0.05);
                }
            }
            ws.writeTextMessage(new JsonObject().put("type", "timestamps").put("contextId", context)
                    .put("word_timestamps", new JsonObject().put("words", words).put("start", starts)
                            .put("end", ends)).encode());
            chunk(ws, context, 2, pcm);
            done(ws, context);
        });
    }

    /** 20 ms of audio whose every byte is {@code value}; PCM cut one byte short of whole samples, as Rime may. */
    private static void chunk(ServerWebSocket ws, String context, int value, boolean pcm) {
        byte[] bytes = new byte[pcm ? 641 : 160];
        Arrays.fill(bytes, (byte) value);
        ws.writeTextMessage(new JsonObject().put("type", "chunk").put("contextId", context)
                .put("data", Base64.getEncoder().encodeToString(bytes)).encode());
    }

    private static void done(ServerWebSocket ws, String context) {
        LOG.add("done:" + context);
        ws.writeTextMessage(new JsonObject().put("type", "done").put("contextId", context).encode());
    }

    private static ModelEndpoint rime(String key, Map<String, Object> more) {
        Map<String, Object> settings = new HashMap<>(Map.of("provider", "rime", "model", "arcana", "voice", "celeste",
                "language", "en", "speed", 1.0));
        settings.putAll(more);
        return new ModelEndpoint(ModelService.TTS, "rime", "arcana", null, List.of(key), settings, false);
    }

    private static List<String> of(Spoken heard, String utterance) {
        return heard.events.stream().filter(e -> e.startsWith(utterance + ":")).toList();
    }

    @Test
    void oneSentenceAtATimeEachWithItsAudioWordsAndEndInTheCallsFormat() throws Exception {
        Spoken heard = new Spoken();
        TextToSpeech.Stream stream = speech.open(rime(KEY, Map.of()), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Hello there.");
        stream.speak("u2", "How can I help?");
        heard.await("u2:done");

        HttpServerRequest upgrade = UPGRADES.getFirst();
        assertThat(upgrade.path()).isEqualTo("/ws3");
        assertThat(upgrade.getHeader("Authorization")).isEqualTo("Bearer " + KEY);
        MultiMap query = upgrade.params();
        assertThat(query.get("speaker")).isEqualTo("celeste");
        assertThat(query.get("modelId")).isEqualTo("arcana");
        assertThat(query.get("audioFormat")).as("the phone's μ-law as it is").isEqualTo("mulaw");
        assertThat(query.get("samplingRate")).isEqualTo("8000");
        assertThat(query.get("segment")).isEqualTo("never");
        assertThat(query.get("lang")).isEqualTo("eng");
        assertThat(query.contains("speedAlpha")).as("speed 1 is Rime's own").isFalse();
        assertThat(UPGRADES).hasSize(1);
        assertThat(LOG).as("the second sentence after the first one's done")
                .containsExactly("text:u1", "flush", "done:u1", "text:u2", "flush", "done:u2");
        assertThat(of(heard, "u1")).containsExactly("u1:audio1", "u1:audio2", "u1:done");
        assertThat(of(heard, "u2")).containsExactly("u2:audio1", "u2:audio2", "u2:done");
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
        assertThat(heard.words).extracting(HeardText.Word::text).as("an end mark joins its word")
                .containsExactly("Hello", "there.", "How", "can", "I", "help?");
        assertThat(heard.words.get(5)).isEqualTo(new HeardText.Word("help?", 900, 1150));
        assertThat(stream.characters()).isEqualTo("Hello there.".length() + "How can I help?".length());
        stream.close();
    }

    @Test
    void aBrowsersCallGetsPcmAt16KhzInWholeSamplesAndTheSpeedGoesAsRimeReadsIt() throws Exception {
        Spoken heard = new Spoken();
        TextToSpeech.Stream stream = speech.open(rime(KEY, Map.of("speed", 1.25)), AudioFormat.PCM_16K, heard);
        stream.speak("u1", "Quickly now.");
        heard.await("u1:done");
        MultiMap query = UPGRADES.getFirst().params();
        assertThat(query.get("audioFormat")).isEqualTo("pcm");
        assertThat(query.get("samplingRate")).isEqualTo("16000");
        assertThat(query.get("speedAlpha")).as("faster above 1 on Arcana").isEqualTo("1.25");
        assertThat(heard.sizes).as("Rime's odd chunks as whole samples").containsExactly(640, 642);
        stream.close();

        assertThat(RimeStream.query("mistv2", "cove", "fr", 1.25, AudioFormat.MULAW_8K))
                .as("Mist v2 is faster below 1; languages in Rime's codes")
                .isEqualTo("?speaker=cove&modelId=mistv2&audioFormat=mulaw&samplingRate=8000&segment=never&lang=fra"
                        + "&speedAlpha=0.8");
    }

    @Test
    void aRefusedKeyFailsTheStreamAtOnceWithRimesStatus() throws Exception {
        Spoken heard = new Spoken();
        speech.open(rime("wrong-key", Map.of()), AudioFormat.MULAW_8K, heard).speak("u1", "Hello.");
        heard.await("failed:");
        Thread.sleep(300);
        assertThat(heard.events).singleElement().asString().startsWith("failed:Rime: Could not reach 127.0.0.1")
                .contains("401");
        assertThat(UPGRADES).as("no second try").hasSize(1);
    }

    @Test
    void upgradesNeverAnsweredAreTriedWithinTheBudgetThenFailTheStream() throws Exception {
        SpeechProviders hurried = new SpeechProviders(http, apis, vertx, Duration.ofMillis(300), 3,
                Duration.ofMillis(100), Duration.ofSeconds(1));
        Spoken heard = new Spoken();
        long from = System.nanoTime();
        hurried.open(rime("hang-key", Map.of()), AudioFormat.MULAW_8K, heard).speak("u1", "Hello.");
        heard.await("failed:");
        long waited = (System.nanoTime() - from) / 1_000_000;
        Thread.sleep(400);
        assertThat(heard.events).singleElement().asString().startsWith("failed:Rime: Could not reach 127.0.0.1");
        assertThat(UPGRADES).as("three tries").hasSize(3);
        assertThat(waited).as("each try waited out its time limit").isGreaterThanOrEqualTo(3 * 300);
    }

    @Test
    void anErrorMidStreamFailsTheStreamWithRimesWords() throws Exception {
        Spoken heard = new Spoken();
        TextToSpeech.Stream stream = speech.open(rime(KEY, Map.of()), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Bad voice here.");
        heard.await("failed:");
        assertThat(heard.events).containsExactly("failed:Rime: speaker 'nobody' is not a valid arcana voice");
        stream.speak("u2", "Anyone there?");
        Thread.sleep(200);
        assertThat(LOG).as("nothing more is sent").containsExactly("text:u1", "flush");
        stream.close();
    }

    @Test
    void aSocketDroppedMidSentenceIsOpenedAgainAndTheSentenceSpokenAgainCountedOnce() throws Exception {
        DROP.set(true);
        Spoken heard = new Spoken();
        TextToSpeech.Stream stream = speech.open(rime(KEY, Map.of()), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Drop this line.");
        stream.speak("u2", "Then this one.");
        heard.await("u2:done");
        assertThat(UPGRADES).as("opened again once").hasSize(2);
        assertThat(of(heard, "u1")).containsExactly("u1:audio1", "u1:restart", "u1:audio1", "u1:audio2", "u1:done");
        assertThat(of(heard, "u2")).containsExactly("u2:audio1", "u2:audio2", "u2:done");
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
        assertThat(stream.characters()).isEqualTo("Drop this line.".length() + "Then this one.".length());
        stream.close();
    }

    @Test
    void aCancelledSentenceIsClearedAtRimeAndNeitherHeardNorInTheWayOfTheNext() throws Exception {
        Spoken heard = new Spoken();
        TextToSpeech.Stream stream = speech.open(rime(KEY, Map.of()), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Stop me if you have heard this one before.");
        stream.speak("u2", "Never mind.");
        heard.await("u1:audio1");
        stream.cancel("u2"); // waiting, nothing of it sent
        stream.cancel("u1");
        stream.speak("u3", "Of course.");
        heard.await("u3:done");
        Thread.sleep(100);
        assertThat(LOG).as("cleared, then the next sentence at once")
                .containsExactly("text:u1", "flush", "clear", "done:u1", "text:u3", "flush", "done:u3");
        assertThat(heard.events).as("the cut sentence's late audio and its done are dropped")
                .containsExactly("u1:audio1", "u3:audio1", "u3:audio2", "u3:done");
        assertThat(stream.characters()).as("the cut sentence was heard in part; the waiting one not at all")
                .isEqualTo("Stop me if you have heard this one before.".length() + "Of course.".length());
        stream.close();
    }

    @Test
    void theKeyIsCheckedByOpeningTheSocketAndSendingNothing() throws Exception {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(rime(KEY, Map.of("voice", "astra"))).await().atMost(Duration.ofSeconds(5)))
                .isEmpty();
        assertThat(UPGRADES).singleElement().satisfies(u -> {
            assertThat(u.path()).isEqualTo("/ws3");
            assertThat(u.getParam("speaker")).isEqualTo("astra");
            assertThat(u.getParam("modelId")).isEqualTo("arcana");
        });
        Thread.sleep(100);
        assertThat(LOG).as("nothing sent").isEmpty();
        assertThat(checks.problem(rime("wrong-key", Map.of())).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Invalid Rime API key")
                        .contains("401"));
    }
}
