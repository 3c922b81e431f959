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
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.voice.HeardText;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Arrays;
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
 * LMNT's speech session (API 1.1) as the voice runtime speaks to it, against a local server that answers as LMNT does
 * and checks what it is sent: the first message (key, version, voice, raw PCM at the call's rate, language, timestamps
 * asked for), a sentence's text then a flush with its nonce, the next sentence only after the last one's
 * {@code flush_complete}; binary PCM frames (100 ms each, every sample 1000 times the frame's number), timestamps before
 * each frame from that frame's start. And the faults: a refused key (LMNT's error message after the first message, no
 * second try), upgrades never answered (time-outs), an error mid-stream, a socket dropped mid-sentence, a cancelled
 * sentence (reset) whose late frames must not be heard and that must not hold up the next; and the key check.
 */
class LmntStreamTest {

    private static final String KEY = "lmnt-key";
    private static final List<HttpServerRequest> UPGRADES = new CopyOnWriteArrayList<>();
    private static final List<JsonObject> INITS = new CopyOnWriteArrayList<>();
    private static final List<HttpServerRequest> ACCOUNT_REQUESTS = new CopyOnWriteArrayList<>();
    /** What the server received and sent, in order: "init", "text:...", "flush:1", "flush_complete:1" (sent)... */
    private static final List<String> LOG = new CopyOnWriteArrayList<>();
    private static final AtomicBoolean DROP = new AtomicBoolean();
    /** How many of the next upgrades are never answered. */
    private static final AtomicInteger HANGS = new AtomicInteger();
    private static Vertx vertx;
    private static GuardedHttp http;
    private static ProviderApis apis;
    private static SpeechProviders speech;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        HttpServer server = vertx.createHttpServer().requestHandler(LmntStreamTest::request);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        String base = "http://127.0.0.1:" + server.actualPort();
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(800));
        apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v").pointing("lmnt", base);
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
        INITS.clear();
        ACCOUNT_REQUESTS.clear();
        LOG.clear();
        DROP.set(false);
        HANGS.set(0);
    }

    private static void request(HttpServerRequest request) {
        if (request.path().equals("/v1/account")) {
            ACCOUNT_REQUESTS.add(request);
            boolean known = KEY.equals(request.getHeader("X-API-Key"));
            request.response().setStatusCode(known ? 200 : 401).putHeader("Content-Type", "application/json")
                    .end(known ? "{\"plan\":{\"type\":\"pro\"},\"usage\":{\"characters\":0}}"
                            : "{\"message\":\"Invalid API key\",\"status\":401}");
            return;
        }
        UPGRADES.add(request);
        if (!request.path().equals("/v1/ai/speech/stream")) {
            request.response().setStatusCode(404).end();
            return;
        }
        if (HANGS.getAndDecrement() > 0) {
            request.pause(); // never answered: the client's time limit runs out
            return;
        }
        request.toWebSocket().onSuccess(LmntStreamTest::serve);
    }

    /**
     * LMNT: the first message checked (a wrong key answered with LMNT's error and a close), then text buffered until a
     * flush. "Drop ..." sentences lose the socket after their first frame (once), "Bad ..." ones get an error, "Stop
     * ..." ones wait after their first frame for a reset (then send what was in flight, which must be dropped).
     */
    private static void serve(ServerWebSocket ws) {
        String[] buffered = {null, ""};
        long[] stopped = {-1};
        int[] rate = {0};
        ws.textMessageHandler(text -> {
            JsonObject m = new JsonObject(text);
            if (buffered[0] == null) {
                buffered[0] = "initialised";
                INITS.add(m);
                LOG.add("init");
                rate[0] = m.getInteger("sample_rate", 24_000);
                if (!KEY.equals(m.getString("X-API-Key"))) {
                    ws.writeTextMessage(new JsonObject().put("type", "error").put("request_id", "r1")
                            .put("error", new JsonObject().put("type", "authentication_error")
                                    .put("message", "Invalid API key")).encode());
                    ws.close((short) 1008, "unauthorized");
                    return;
                }
                ws.writeTextMessage(new JsonObject().put("type", "ready").put("request_id", "r1").encode());
                return;
            }
            long nonce = m.getLong("nonce", -1L);
            switch (m.getString("type")) {
                case "text" -> {
                    LOG.add("text:" + m.getString("text").strip());
                    buffered[1] += m.getString("text");
                }
                case "reset" -> {
                    LOG.add("reset:" + nonce);
                    if (stopped[0] >= 0) {
                        frame(ws, rate[0], 3); // in flight when the reset came
                        complete(ws, "flush_complete", stopped[0]);
                        stopped[0] = -1;
                    }
                    buffered[1] = "";
                    complete(ws, "reset_complete", nonce);
                }
                case "flush" -> {
                    LOG.add("flush:" + nonce);
                    String sentence = buffered[1].strip();
                    buffered[1] = "";
                    speak(ws, rate[0], sentence, nonce, stopped);
                }
                default -> LOG.add("unexpected:" + text);
            }
        });
    }

    private static void speak(ServerWebSocket ws, int rate, String sentence, long nonce, long[] stopped) {
        if (sentence.startsWith("Drop") && DROP.compareAndSet(true, false)) {
            frame(ws, rate, 1);
            vertx.setTimer(30, t -> ws.close((short) 1011, "internal error"));
            return;
        }
        if (sentence.startsWith("Bad")) {
            ws.writeTextMessage(new JsonObject().put("type", "error").put("request_id", "r1").put("error",
                    new JsonObject().put("type", "invalid_request_error").put("message", "voice nobody not found"))
                    .encode());
            return;
        }
        String[] words = sentence.split(" ");
        int half = (words.length + 1) / 2;
        timestamps(ws, words, 0, half);
        frame(ws, rate, 1);
        if (sentence.startsWith("Stop")) {
            stopped[0] = nonce; // the rest comes after the reset
            return;
        }
        timestamps(ws, words, half, words.length);
        frame(ws, rate, 2);
        complete(ws, "flush_complete", nonce);
    }

    /** The words of the next frame, each token from that frame's start: word, end mark, space. */
    private static void timestamps(ServerWebSocket ws, String[] words, int from, int to) {
        JsonArray tokens = new JsonArray();
        for (int i = from; i < to; i++) {
            String bare = words[i].replaceAll("[.?!]$", "");
            double start = (i - from) * 0.04;
            tokens.add(token(bare, start, 0.03));
            if (!bare.equals(words[i])) {
                tokens.add(token(words[i].substring(bare.length()), start + 0.03, 0));
            }
            tokens.add(token(" ", start + 0.03, 0.01));
        }
        ws.writeTextMessage(new JsonObject().put("type", "timestamps").put("timestamps", tokens).encode());
    }

    private static JsonObject token(String text, double start, double duration) {
        return new JsonObject().put("text", text).put("start", start).put("duration", duration);
    }

    /** 100 ms of PCM at {@code rate}, every sample {@code 1000 * value}. */
    private static void frame(ServerWebSocket ws, int rate, int value) {
        short[] samples = new short[rate / 10];
        Arrays.fill(samples, (short) (1000 * value));
        ws.writeBinaryMessage(Buffer.buffer(Pcm16.bytes(samples)));
    }

    private static void complete(ServerWebSocket ws, String type, long nonce) {
        LOG.add(type + ":" + nonce);
        ws.writeTextMessage(new JsonObject().put("type", type).put("nonce", nonce).encode());
    }

    private static ModelEndpoint lmnt(String key) {
        Map<String, Object> settings = new HashMap<>(Map.of("provider", "lmnt", "model", "blizzard", "voice", "lily",
                "language", "en"));
        return new ModelEndpoint(ModelService.TTS, "lmnt", "blizzard", null, List.of(key), settings, false);
    }

    private static List<String> of(Spoken heard, String utterance) {
        return heard.events.stream().filter(e -> e.startsWith(utterance + ":")).toList();
    }

    @Test
    void oneSentenceAtATimeItsFramesWordsAndFlushCompleteInTheCallsFormat() throws Exception {
        Spoken heard = new Spoken(AudioFormat.MULAW_8K);
        TextToSpeech.Stream stream = speech.open(lmnt(KEY), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Hello there.");
        stream.speak("u2", "How can I help?");
        heard.await("u2:done");

        assertThat(UPGRADES).singleElement().satisfies(u -> {
            assertThat(u.path()).isEqualTo("/v1/ai/speech/stream");
            assertThat(u.getHeader("X-API-Key")).as("the key goes in the first message only").isNull();
        });
        assertThat(INITS).singleElement().isEqualTo(new JsonObject().put("X-API-Key", KEY).put("lmnt-version", "1.1")
                .put("voice", "lily").put("format", "pcm_s16le").put("sample_rate", 8_000)
                .put("return_timestamps", true).put("language", "en"));
        assertThat(LOG).as("the second sentence after the first one's flush_complete").containsExactly("init",
                "text:Hello there.", "flush:1", "flush_complete:1", "text:How can I help?", "flush:2",
                "flush_complete:2");
        assertThat(of(heard, "u1")).containsExactly("u1:audio1", "u1:audio2", "u1:done");
        assertThat(of(heard, "u2")).containsExactly("u2:audio1", "u2:audio2", "u2:done");
        assertThat(heard.sizes).as("100 ms of μ-law, encoded here").containsOnly(800);
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
        assertThat(heard.words).as("each frame's words after the audio before it; marks join their word")
                .containsExactly(new HeardText.Word("Hello", 0, 30), new HeardText.Word("there.", 100, 130),
                        new HeardText.Word("How", 0, 30), new HeardText.Word("can", 40, 70),
                        new HeardText.Word("I", 100, 130), new HeardText.Word("help?", 140, 170));
        assertThat(stream.characters()).isEqualTo("Hello there.".length() + "How can I help?".length());
        stream.close();
    }

    @Test
    void aBrowsersCallGetsTheProvidersPcmAt16KhzAsItIs() throws Exception {
        Spoken heard = new Spoken(AudioFormat.PCM_16K);
        TextToSpeech.Stream stream = speech.open(lmnt(KEY), AudioFormat.PCM_16K, heard);
        stream.speak("u1", "Hello.");
        heard.await("u1:done");
        assertThat(INITS.getFirst().getInteger("sample_rate")).isEqualTo(16_000);
        assertThat(of(heard, "u1")).containsExactly("u1:audio1", "u1:audio2", "u1:done");
        assertThat(heard.sizes).containsExactly(3_200, 3_200);
        stream.close();
    }

    @Test
    void aRefusedKeyFailsTheStreamAtOnceWithLmntsWords() throws Exception {
        Spoken heard = new Spoken(AudioFormat.MULAW_8K);
        speech.open(lmnt("wrong-key"), AudioFormat.MULAW_8K, heard).speak("u1", "Hello.");
        heard.await("failed:");
        Thread.sleep(300);
        assertThat(heard.events).containsExactly("failed:LMNT: Invalid API key (authentication_error)");
        assertThat(UPGRADES).as("no second try").hasSize(1);
    }

    @Test
    void upgradesNeverAnsweredAreTriedWithinTheBudgetThenFailTheStream() throws Exception {
        HANGS.set(3);
        SpeechProviders hurried = new SpeechProviders(http, apis, vertx, Duration.ofMillis(300), 3,
                Duration.ofMillis(100), Duration.ofSeconds(1));
        Spoken heard = new Spoken(AudioFormat.MULAW_8K);
        long from = System.nanoTime();
        hurried.open(lmnt(KEY), AudioFormat.MULAW_8K, heard).speak("u1", "Hello.");
        heard.await("failed:");
        long waited = (System.nanoTime() - from) / 1_000_000;
        Thread.sleep(400);
        assertThat(heard.events).singleElement().asString().startsWith("failed:LMNT: Could not reach 127.0.0.1");
        assertThat(UPGRADES).as("three tries").hasSize(3);
        assertThat(waited).as("each try waited out its time limit").isGreaterThanOrEqualTo(3 * 300);
    }

    @Test
    void anErrorMidStreamFailsTheStreamWithLmntsWords() throws Exception {
        Spoken heard = new Spoken(AudioFormat.MULAW_8K);
        TextToSpeech.Stream stream = speech.open(lmnt(KEY), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Bad voice here.");
        heard.await("failed:");
        assertThat(heard.events).containsExactly("failed:LMNT: voice nobody not found (invalid_request_error)");
        stream.speak("u2", "Anyone there?");
        Thread.sleep(200);
        assertThat(LOG).as("nothing more is sent").containsExactly("init", "text:Bad voice here.", "flush:1");
        stream.close();
    }

    @Test
    void aSocketDroppedMidSentenceIsOpenedAgainAndTheSentenceSpokenAgainCountedOnce() throws Exception {
        DROP.set(true);
        Spoken heard = new Spoken(AudioFormat.MULAW_8K);
        TextToSpeech.Stream stream = speech.open(lmnt(KEY), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Drop this line.");
        stream.speak("u2", "Then this one.");
        heard.await("u2:done");
        assertThat(UPGRADES).as("opened again once").hasSize(2);
        assertThat(INITS).as("the new session is initialised too").hasSize(2);
        assertThat(of(heard, "u1")).containsExactly("u1:audio1", "u1:restart", "u1:audio1", "u1:audio2", "u1:done");
        assertThat(of(heard, "u2")).containsExactly("u2:audio1", "u2:audio2", "u2:done");
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
        assertThat(stream.characters()).isEqualTo("Drop this line.".length() + "Then this one.".length());
        stream.close();
    }

    @Test
    void aCancelledSentenceIsResetAtLmntAndNeitherHeardNorInTheWayOfTheNext() throws Exception {
        Spoken heard = new Spoken(AudioFormat.MULAW_8K);
        TextToSpeech.Stream stream = speech.open(lmnt(KEY), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Stop me if you have heard this one before.");
        stream.speak("u2", "Never mind.");
        heard.await("u1:audio1");
        stream.cancel("u2"); // waiting, nothing of it sent
        stream.cancel("u1");
        stream.speak("u3", "Of course.");
        heard.await("u3:done");
        Thread.sleep(100);
        assertThat(LOG).as("reset, then the next sentence at once").containsExactly("init",
                "text:Stop me if you have heard this one before.", "flush:1", "reset:2", "flush_complete:1",
                "reset_complete:2", "text:Of course.", "flush:3", "flush_complete:3");
        assertThat(heard.events).as("the cut sentence's late frame is dropped")
                .containsExactly("u1:audio1", "u3:audio1", "u3:audio2", "u3:done");
        assertThat(heard.words).extracting(HeardText.Word::text).containsExactly("Stop", "me", "if", "you", "have",
                "Of", "course.");
        assertThat(stream.characters()).as("the cut sentence was heard in part; the waiting one not at all")
                .isEqualTo("Stop me if you have heard this one before.".length() + "Of course.".length());
        stream.close();
    }

    @Test
    void theKeyIsCheckedWithTheAccountNoSessionOpened() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(lmnt(KEY)).await().atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(ACCOUNT_REQUESTS).singleElement().satisfies(r -> {
            assertThat(r.method().name()).isEqualTo("GET");
            assertThat(r.getHeader("lmnt-version")).isEqualTo("1.1");
        });
        assertThat(checks.problem(lmnt("wrong-key")).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Invalid LMNT API key")
                        .contains("401", "Invalid API key"));
        assertThat(UPGRADES).isEmpty();
    }
}
