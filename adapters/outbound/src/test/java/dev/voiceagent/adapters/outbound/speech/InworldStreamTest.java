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
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Inworld's TTS WebSocket as the voice runtime speaks to it, against a local server that answers as Inworld does and
 * checks what it is sent: the key as Basic authorization at the upgrade, each sentence a context created with the
 * voice, model, format, language and delivery mode, its text flushed and the context closed; audioChunk results of
 * base64 audio (μ-law with a WAV header at the flush's first chunk), word timestamps trailing the audio, flushCompleted,
 * contextClosed. And the faults: a refused key (401 at the upgrade, no second try), upgrades never answered
 * (time-outs), an error status mid-stream, a socket dropped mid-sentence, a cancelled sentence whose late audio must not
 * be heard and that must not hold up the next, Inworld's five contexts a connection; and the key check.
 */
class InworldStreamTest {

    private static final String KEY = "aW53b3JsZDprZXk=";
    private static final String PATH = "/tts/v1/voice:streamBidirectional";
    private static final List<HttpServerRequest> UPGRADES = new CopyOnWriteArrayList<>();
    private static final List<HttpServerRequest> VOICE_REQUESTS = new CopyOnWriteArrayList<>();
    /** Each context's create message, as received. */
    private static final List<JsonObject> CREATES = new CopyOnWriteArrayList<>();
    /** What the server received and sent, in order: "create:u1", "text:u1", "close:u1", "closed:u1" (sent), "late:u1". */
    private static final List<String> LOG = new CopyOnWriteArrayList<>();
    /** Contexts open at the server now. */
    private static final Set<String> OPEN = ConcurrentHashMap.newKeySet();
    private static final AtomicInteger MOST_OPEN = new AtomicInteger();
    private static final AtomicBoolean DROP = new AtomicBoolean();
    private static final AtomicInteger HANGS = new AtomicInteger();
    private static Vertx vertx;
    private static GuardedHttp http;
    private static ProviderApis apis;
    private static SpeechProviders speech;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        HttpServer server = vertx.createHttpServer().requestHandler(InworldStreamTest::request);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        String base = "http://127.0.0.1:" + server.actualPort();
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(800));
        apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v").pointing("inworld", base);
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
        VOICE_REQUESTS.clear();
        CREATES.clear();
        LOG.clear();
        OPEN.clear();
        MOST_OPEN.set(0);
        DROP.set(false);
        HANGS.set(0);
    }

    private static void request(HttpServerRequest request) {
        boolean known = ("Basic " + KEY).equals(request.getHeader("Authorization"));
        if (request.path().equals("/voices/v1/voices")) {
            VOICE_REQUESTS.add(request);
            request.response().setStatusCode(known ? 200 : 401).putHeader("Content-Type", "application/json")
                    .end(known ? "{\"voices\":[{\"voiceId\":\"Ashley\"}],\"nextPageToken\":\"1-1\"}"
                            : "{\"code\":16,\"message\":\"Invalid authorization credentials\",\"details\":[]}");
            return;
        }
        UPGRADES.add(request);
        if (HANGS.getAndDecrement() > 0) {
            request.pause(); // never answered: the client's time limit runs out
            return;
        }
        if (!known) {
            request.response().setStatusCode(401).end("Invalid authorization credentials");
            return;
        }
        if (!PATH.equals(request.path())) {
            request.response().setStatusCode(404).end();
            return;
        }
        request.toWebSocket().onSuccess(InworldStreamTest::serve);
    }

    /**
     * Inworld: contexts created, text spoken when flushed, a context closed after its audio. "Drop ..." sentences lose
     * the socket after their first chunk (once), "Bad ..." ones get an error status, "Stop ..." ones send their first
     * chunk, then the rest a while later (the audio Inworld still makes after a barge-in, which must be dropped).
     */
    private static void serve(ServerWebSocket ws) {
        Map<String, JsonObject> configs = new ConcurrentHashMap<>();
        Set<String> slow = ConcurrentHashMap.newKeySet();
        ws.textMessageHandler(text -> {
            JsonObject m = new JsonObject(text);
            String context = m.getString("contextId");
            if (m.containsKey("create")) {
                LOG.add("create:" + context);
                CREATES.add(m);
                configs.put(context, m.getJsonObject("create"));
                OPEN.add(context);
                MOST_OPEN.accumulateAndGet(OPEN.size(), Math::max);
                result(ws, context, new JsonObject().put("contextCreated", m.getJsonObject("create")));
            } else if (m.containsKey("send_text")) {
                LOG.add("text:" + context);
                JsonObject send = m.getJsonObject("send_text");
                if (!send.containsKey("flush_context")) {
                    LOG.add("unflushed:" + context);
                }
                speak(ws, context, configs.get(context), send.getString("text").strip(), slow);
            } else if (m.containsKey("close_context")) {
                LOG.add("close:" + context);
                if (!slow.contains(context)) {
                    closed(ws, context);
                }
            } else {
                LOG.add("unexpected:" + text);
            }
        });
    }

    private static void speak(ServerWebSocket ws, String context, JsonObject config, String sentence,
            Set<String> slow) {
        boolean mulaw = "MULAW".equals(config.getJsonObject("audioConfig").getString("audioEncoding"));
        if (sentence.startsWith("Drop") && DROP.compareAndSet(true, false)) {
            slow.add(context); // its close never comes: the socket goes first
            chunk(ws, context, 1, mulaw, true);
            vertx.setTimer(30, t -> ws.close((short) 1011, "internal error"));
            return;
        }
        if (sentence.startsWith("Bad")) {
            result(ws, context, new JsonObject().put("status", new JsonObject().put("code", 3)
                    .put("message", "Unknown voice: nobody").put("details", new JsonArray())));
            return;
        }
        chunk(ws, context, 1, mulaw, true);
        if (sentence.startsWith("Stop")) {
            slow.add(context);
            vertx.setTimer(300, t -> {
                if (!ws.isClosed()) {
                    LOG.add("late:" + context);
                    chunk(ws, context, 3, mulaw, false);
                    closed(ws, context);
                }
            });
            return;
        }
        chunk(ws, context, 2, mulaw, false);
        String[] words = sentence.split(" ");
        JsonArray starts = new JsonArray();
        JsonArray ends = new JsonArray();
        for (int i = 0; i < words.length; i++) {
            starts.add(i * 0.3);
            ends.add(i * 0.3 + 0.25);
        }
        result(ws, context, new JsonObject().put("audioChunk", new JsonObject().put("timestampInfo",
                new JsonObject().put("wordAlignment", new JsonObject().put("words", new JsonArray(List.of(
                        (Object[]) words))).put("wordStartTimeSeconds", starts).put("wordEndTimeSeconds", ends)))));
        result(ws, context, new JsonObject().put("flushCompleted", new JsonObject()));
    }

    /** 20 ms of audio whose every byte is {@code value}; μ-law in a WAV container at the flush's first chunk. */
    private static void chunk(ServerWebSocket ws, String context, int value, boolean mulaw, boolean first) {
        byte[] audio = new byte[mulaw ? 160 : 640];
        Arrays.fill(audio, (byte) value);
        byte[] bytes = mulaw && first ? wav(audio) : audio;
        result(ws, context, new JsonObject().put("audioChunk", new JsonObject()
                .put("audioContent", Base64.getEncoder().encodeToString(bytes))
                .put("usage", new JsonObject().put("processedCharactersCount", 12).put("modelId", "inworld-tts-2"))));
    }

    /** A μ-law WAV file: RIFF, a format 7 fmt chunk of 18 bytes, a fact chunk, the data. */
    private static byte[] wav(byte[] mulaw) {
        ByteBuffer b = ByteBuffer.allocate(58 + mulaw.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes()).putInt(50 + mulaw.length).put("WAVE".getBytes());
        b.put("fmt ".getBytes()).putInt(18).putShort((short) 7).putShort((short) 1).putInt(8_000).putInt(8_000)
                .putShort((short) 1).putShort((short) 8).putShort((short) 0);
        b.put("fact".getBytes()).putInt(4).putInt(mulaw.length);
        b.put("data".getBytes()).putInt(mulaw.length).put(mulaw);
        return b.array();
    }

    private static void closed(ServerWebSocket ws, String context) {
        LOG.add("closed:" + context);
        OPEN.remove(context);
        result(ws, context, new JsonObject().put("contextClosed", new JsonObject()));
    }

    private static void result(ServerWebSocket ws, String context, JsonObject result) {
        result.put("contextId", context);
        if (!result.containsKey("status")) {
            result.put("status", new JsonObject().put("code", 0).put("message", "").put("details", new JsonArray()));
        }
        ws.writeTextMessage(new JsonObject().put("result", result).encode());
    }

    private static ModelEndpoint inworld(String key, Map<String, Object> more) {
        Map<String, Object> settings = new HashMap<>(Map.of("provider", "inworld", "model", "inworld-tts-2",
                "voice", "Ashley", "language", "en-US", "speed", 1.0, "delivery_mode", "BALANCED"));
        settings.putAll(more);
        return new ModelEndpoint(ModelService.TTS, "inworld", String.valueOf(settings.get("model")), null,
                List.of(key), settings, false);
    }

    private static List<String> of(List<String> events, String utterance) {
        return events.stream().filter(e -> e.startsWith(utterance + ":") || e.endsWith(":" + utterance)).toList();
    }

    @Test
    void eachSentenceIsAContextWhoseAudioWordsAndCloseComeBackToIt() throws Exception {
        Spoken heard = new Spoken();
        TextToSpeech.Stream stream = speech.open(inworld(KEY, Map.of()), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Hello there.");
        stream.speak("u2", "How can I help?");
        heard.await("u2:done");
        heard.await("u1:done");

        assertThat(UPGRADES).singleElement().satisfies(u -> {
            assertThat(u.path()).isEqualTo(PATH);
            assertThat(u.getHeader("Authorization")).isEqualTo("Basic " + KEY);
        });
        assertThat(CREATES).extracting(m -> m.getString("contextId")).containsExactly("u1", "u2");
        assertThat(CREATES.getFirst().getJsonObject("create")).isEqualTo(new JsonObject().put("voiceId", "Ashley")
                .put("modelId", "inworld-tts-2")
                .put("audioConfig", new JsonObject().put("audioEncoding", "MULAW").put("sampleRateHertz", 8_000))
                .put("timestampType", "WORD").put("timestampTransportStrategy", "ASYNC").put("language", "en-US")
                .put("deliveryMode", "BALANCED"));
        assertThat(of(LOG, "u1")).as("created, flushed and closed back to back")
                .containsExactly("create:u1", "text:u1", "close:u1", "closed:u1");
        assertThat(LOG).noneMatch(e -> e.startsWith("unflushed:") || e.startsWith("unexpected:"));
        assertThat(of(heard.events, "u1")).as("the WAV header dropped").containsExactly("u1:audio1", "u1:audio2",
                "u1:done");
        assertThat(of(heard.events, "u2")).containsExactly("u2:audio1", "u2:audio2", "u2:done");
        assertThat(heard.sizes).containsOnly(160);
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
        assertThat(heard.words).extracting(HeardText.Word::text).containsExactlyInAnyOrder("Hello", "there.", "How",
                "can", "I", "help?");
        assertThat(heard.words).filteredOn(w -> w.text().equals("help?")).singleElement()
                .isEqualTo(new HeardText.Word("help?", 900, 1150));
        assertThat(stream.characters()).isEqualTo("Hello there.".length() + "How can I help?".length());
        stream.close();
    }

    @Test
    void aBrowsersCallGetsRawPcmAt16KhzAndOtherModelsNeitherLanguageNorDeliveryMode() throws Exception {
        Spoken heard = new Spoken();
        TextToSpeech.Stream stream = speech.open(inworld(KEY, Map.of("model", "inworld-tts-1.5-max", "speed", 2.0)),
                AudioFormat.PCM_16K, heard);
        stream.speak("u1", "Quickly now.");
        heard.await("u1:done");
        assertThat(CREATES.getFirst().getJsonObject("create")).isEqualTo(new JsonObject().put("voiceId", "Ashley")
                .put("modelId", "inworld-tts-1.5-max")
                .put("audioConfig", new JsonObject().put("audioEncoding", "PCM").put("sampleRateHertz", 16_000)
                        .put("speakingRate", 1.5))
                .put("timestampType", "WORD").put("timestampTransportStrategy", "ASYNC"));
        assertThat(heard.sizes).containsExactly(640, 640);
        stream.close();
    }

    @Test
    void aRefusedKeyFailsTheStreamAtOnceWithInworldsStatus() throws Exception {
        Spoken heard = new Spoken();
        speech.open(inworld("d3Jvbmc=", Map.of()), AudioFormat.MULAW_8K, heard).speak("u1", "Hello.");
        heard.await("failed:");
        Thread.sleep(300);
        assertThat(heard.events).singleElement().asString()
                .startsWith("failed:Inworld: Could not reach 127.0.0.1").contains("401");
        assertThat(UPGRADES).as("no second try").hasSize(1);
    }

    @Test
    void upgradesNeverAnsweredAreTriedWithinTheBudgetThenFailTheStream() throws Exception {
        HANGS.set(3);
        SpeechProviders hurried = new SpeechProviders(http, apis, vertx, Duration.ofMillis(300), 3,
                Duration.ofMillis(100), Duration.ofSeconds(1));
        Spoken heard = new Spoken();
        long from = System.nanoTime();
        hurried.open(inworld(KEY, Map.of()), AudioFormat.MULAW_8K, heard).speak("u1", "Hello.");
        heard.await("failed:");
        long waited = (System.nanoTime() - from) / 1_000_000;
        Thread.sleep(400);
        assertThat(heard.events).singleElement().asString().startsWith("failed:Inworld: Could not reach 127.0.0.1");
        assertThat(UPGRADES).as("three tries").hasSize(3);
        assertThat(waited).as("each try waited out its time limit").isGreaterThanOrEqualTo(3 * 300);
    }

    @Test
    void anErrorStatusMidStreamFailsTheStreamWithInworldsWords() throws Exception {
        Spoken heard = new Spoken();
        TextToSpeech.Stream stream = speech.open(inworld(KEY, Map.of()), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Bad voice here.");
        heard.await("failed:");
        assertThat(heard.events).containsExactly("failed:Inworld: Unknown voice: nobody (code 3)");
        stream.speak("u2", "Anyone there?");
        Thread.sleep(200);
        assertThat(LOG).as("nothing more is sent").filteredOn(e -> !e.startsWith("closed:"))
                .containsExactly("create:u1", "text:u1", "close:u1");
        stream.close();
    }

    @Test
    void aSocketDroppedMidSentenceIsOpenedAgainAndItsSentencesSpokenAgainEachCountedOnce() throws Exception {
        DROP.set(true);
        Spoken heard = new Spoken();
        TextToSpeech.Stream stream = speech.open(inworld(KEY, Map.of()), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Drop this line.");
        heard.await("u1:audio1");
        stream.speak("u2", "Then this one.");
        heard.await("u1:done");
        heard.await("u2:done");
        assertThat(UPGRADES).as("opened again once").hasSize(2);
        assertThat(of(heard.events, "u1")).containsExactly("u1:audio1", "u1:restart", "u1:audio1", "u1:audio2",
                "u1:done");
        assertThat(of(heard.events, "u2")).as("none lost").containsExactly("u2:audio1", "u2:audio2", "u2:done");
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
        assertThat(stream.characters()).isEqualTo("Drop this line.".length() + "Then this one.".length());
        stream.close();
    }

    @Test
    void aCancelledSentencesLateAudioIsDroppedAndTheNextIsNotHeldUp() throws Exception {
        Spoken heard = new Spoken();
        TextToSpeech.Stream stream = speech.open(inworld(KEY, Map.of()), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Stop me if you have heard this one before.");
        heard.await("u1:audio1");
        stream.cancel("u1");
        stream.speak("u2", "Of course.");
        heard.await("u2:done");
        await(() -> LOG.contains("closed:u1"), "the cut sentence's context closed");
        Thread.sleep(50);
        assertThat(LOG.indexOf("closed:u2")).as("the next sentence did not wait for the cut one")
                .isLessThan(LOG.indexOf("late:u1"));
        assertThat(heard.events).as("the cut sentence's late audio and its close are dropped")
                .containsExactly("u1:audio1", "u2:audio1", "u2:audio2", "u2:done");
        assertThat(stream.characters()).isEqualTo("Stop me if you have heard this one before.".length()
                + "Of course.".length());
        stream.close();
    }

    @Test
    void atMostFourContextsAreOpenACancelledOneUntilInworldClosesIt() throws Exception {
        Spoken heard = new Spoken();
        TextToSpeech.Stream stream = speech.open(inworld(KEY, Map.of()), AudioFormat.MULAW_8K, heard);
        for (int i = 1; i <= 5; i++) {
            stream.speak("s" + i, "Stop number " + i + ".");
        }
        heard.await("s4:audio1");
        stream.cancel("s1");
        stream.cancel("s5"); // waiting: never sent
        stream.speak("s6", "Stop six.");
        Thread.sleep(100);
        assertThat(CREATES).as("the cut sentence still holds its context").hasSize(4);
        heard.await("s6:audio1");
        assertThat(CREATES).extracting(m -> m.getString("contextId")).containsExactly("s1", "s2", "s3", "s4", "s6");
        assertThat(LOG.indexOf("create:s6")).isGreaterThan(LOG.indexOf("closed:s1"));
        assertThat(MOST_OPEN.get()).isEqualTo(InworldStream.MAX_CONTEXTS);
        heard.await("s6:done");
        assertThat(stream.characters()).as("s1 in part, s2, s3, s4 and s6 whole; s5 never")
                .isEqualTo(4L * "Stop number 1.".length() + "Stop six.".length());
        stream.close();
    }

    @Test
    void theKeyIsCheckedWithOneVoiceNoSocketOpened() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(inworld(KEY, Map.of())).await().atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(VOICE_REQUESTS).singleElement().satisfies(r -> {
            assertThat(r.method().name()).isEqualTo("GET");
            assertThat(r.query()).isEqualTo("pageSize=1");
        });
        assertThat(checks.problem(inworld("d3Jvbmc=", Map.of())).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Invalid Inworld API key")
                        .contains("401", "Invalid authorization credentials"));
        assertThat(UPGRADES).isEmpty();
    }
}
