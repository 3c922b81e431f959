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
import dev.voiceagent.domain.audio.Wav;
import dev.voiceagent.domain.model.ModelService;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Google Cloud Text-to-Speech's REST {@code text:synthesize} as a call speaks with it, against a local server that
 * answers as Google does: each request checked (the API key in x-goog-api-key, the voice and language, the speaking
 * rate, MULAW at 8 kHz on the phone and LINEAR16 at 16 kHz in a browser, the sentence), the answer's JSON sent in pieces
 * with the audio in a WAV file whose header is stripped (a μ-law one with an 18-byte fmt and a fact chunk, as Google's
 * are). And the faults: a 401 (failed with Google's words, asked once), a provider that never answers, an answer cut
 * mid-way (asked again, spoken once), a sentence cancelled while its answer comes (its request reset, the next one
 * spoken); the key check, the language's voices.
 */
class GoogleSpeechTest {

    private static final String KEY = "AIza-key";
    private static final String UNAUTHENTICATED = "{\"error\":{\"code\":401,\"message\":\"Request had invalid"
            + " authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication"
            + " credential.\",\"status\":\"UNAUTHENTICATED\"}}";

    /** One synthesis request as the server saw it. */
    static final class Seen {
        final Map<String, String> headers = new HashMap<>();
        final JsonObject body;

        Seen(HttpServerRequest request, JsonObject body) {
            request.headers().forEach(h -> headers.put(h.getKey().toLowerCase(), h.getValue()));
            this.body = body;
        }

        String text() {
            return body.getJsonObject("input").getString("text");
        }
    }

    private static final List<Seen> SEEN = new CopyOnWriteArrayList<>();
    private static final List<String> VOICE_LISTS = new CopyOnWriteArrayList<>();
    private static final Map<String, Integer> ATTEMPTS = new ConcurrentHashMap<>();
    private static final Map<String, Boolean> RESET = new ConcurrentHashMap<>();
    private static Vertx vertx;
    private static HttpServer server;
    private static GuardedHttp http;
    private static ProviderApis apis;
    private static SpeechProviders speech;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(GoogleSpeechTest::request);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        String base = "http://127.0.0.1:" + server.actualPort();
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(600));
        apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v").pointing("google_tts", base);
        speech = new SpeechProviders(http, apis, vertx, Duration.ofMillis(600), 3, Duration.ofMillis(100),
                Duration.ofSeconds(1));
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        SEEN.clear();
        VOICE_LISTS.clear();
        ATTEMPTS.clear();
        RESET.clear();
    }

    private static void request(HttpServerRequest request) {
        request.body().onSuccess(body -> {
            if (request.method().name().equals("GET") && request.path().equals("/v1/voices")) {
                VOICE_LISTS.add(request.getHeader("x-goog-api-key") + " " + request.getParam("languageCode"));
                boolean good = KEY.equals(request.getHeader("x-goog-api-key"));
                request.response().setStatusCode(good ? 200 : 400).putHeader("Content-Type", "application/json")
                        .end(good ? "{\"voices\":[{\"name\":\"en-US-Chirp3-HD-Charon\"}]}"
                                : "{\"error\":{\"code\":400,\"message\":\"API key not valid. Please pass a valid API"
                                        + " key.\",\"status\":\"INVALID_ARGUMENT\"}}");
            } else if (request.method().name().equals("POST") && request.path().equals("/v1/text:synthesize")) {
                synthesize(request, new JsonObject(body));
            } else {
                request.response().setStatusCode(404).end();
            }
        });
    }

    /**
     * Answers a sentence as Google does: JSON with the audio as a base64 WAV file, sent in pieces. "refuse" is a 401,
     * "silent" never answers, "breaks" is cut half-way the first time, "long" comes slowly.
     */
    private static void synthesize(HttpServerRequest request, JsonObject body) {
        Seen seen = new Seen(request, body);
        SEEN.add(seen);
        String text = seen.text();
        int attempt = ATTEMPTS.merge(text, 1, Integer::sum);
        HttpServerResponse response = request.response();
        if (text.equals("refuse")) {
            response.setStatusCode(401).putHeader("Content-Type", "application/json").end(UNAUTHENTICATED);
            return;
        }
        if (text.equals("silent")) {
            return;
        }
        boolean mulaw = "MULAW".equals(body.getJsonObject("audioConfig").getString("audioEncoding"));
        byte[] wav = mulaw ? mulawWav(audio(text, false)) : pcmWav(audio(text, true));
        byte[] json = new JsonObject().put("audioContent", Base64.getEncoder().encodeToString(wav)).encodePrettily()
                .getBytes(StandardCharsets.UTF_8);
        response.setChunked(true).putHeader("Content-Type", "application/json; charset=UTF-8");
        response.closeHandler(v -> RESET.put(text, true));
        if (text.startsWith("breaks") && attempt == 1) {
            response.write(Buffer.buffer(Arrays.copyOf(json, json.length / 2)));
            vertx.setTimer(30, t -> request.connection().close());
            return;
        }
        boolean slow = text.startsWith("long");
        int pieces = slow ? 40 : 4;
        stream(response, json, 0, json.length / pieces + 1, slow ? 50 : 5);
    }

    private static void stream(HttpServerResponse response, byte[] body, int at, int piece, long gapMs) {
        if (response.closed()) {
            return;
        }
        if (at >= body.length) {
            response.end();
            return;
        }
        int end = Math.min(body.length, at + piece);
        response.write(Buffer.buffer(Arrays.copyOfRange(body, at, end)));
        vertx.setTimer(gapMs, t -> stream(response, body, end, piece, gapMs));
    }

    /** A sentence's audio: 10 ms a character, each byte its position's (so any loss, reordering or header shows). */
    static byte[] audio(String text, boolean pcm) {
        byte[] audio = new byte[text.length() * (pcm ? 320 : 80)];
        for (int i = 0; i < audio.length; i++) {
            audio[i] = (byte) (text.hashCode() + i * 7);
        }
        return audio;
    }

    /** μ-law in a WAV file as Google writes it: an 18-byte fmt chunk (format 7), a fact chunk, then the data. */
    private static byte[] mulawWav(byte[] data) {
        ByteBuffer b = ByteBuffer.allocate(12 + 26 + 12 + 8 + data.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes(StandardCharsets.US_ASCII)).putInt(b.capacity() - 8)
                .put("WAVE".getBytes(StandardCharsets.US_ASCII));
        b.put("fmt ".getBytes(StandardCharsets.US_ASCII)).putInt(18).putShort((short) 7).putShort((short) 1)
                .putInt(8_000).putInt(8_000).putShort((short) 1).putShort((short) 8).putShort((short) 0);
        b.put("fact".getBytes(StandardCharsets.US_ASCII)).putInt(4).putInt(data.length);
        b.put("data".getBytes(StandardCharsets.US_ASCII)).putInt(data.length).put(data);
        return b.array();
    }

    private static byte[] pcmWav(byte[] data) {
        byte[] header = Wav.header(1, 16_000, data.length);
        byte[] file = Arrays.copyOf(header, header.length + data.length);
        System.arraycopy(data, 0, file, header.length, data.length);
        return file;
    }

    private static ModelEndpoint google(String key, Map<String, Object> settings) {
        return new ModelEndpoint(ModelService.TTS, "google", "chirp_3_hd", null, key == null ? List.of()
                : List.of(key), settings, false);
    }

    private static final Map<String, Object> SETTINGS = Map.of("model", "chirp_3_hd", "voice",
            "en-GB-Chirp3-HD-Aoede", "language", "en-GB", "speed", 1.1);

    @Test
    void eachSentenceIsSynthesizedInTheCallsFormatAndItsWavHeaderStripped() throws Exception {
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(2);
        TextToSpeech.Stream stream = speech.open(google(KEY, SETTINGS), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Hello there.");
        stream.speak("u2", "How can I help?");
        heard.await();
        assertThat(heard.events).containsExactlyInAnyOrder("done:u1", "done:u2");
        assertThat(heard.audio.get("u1").toByteArray()).as("the data chunk alone, in order")
                .isEqualTo(audio("Hello there.", false));
        assertThat(heard.audio.get("u2").toByteArray()).isEqualTo(audio("How can I help?", false));
        assertThat(SEEN).extracting(Seen::text).containsExactlyInAnyOrder("Hello there.", "How can I help?");
        for (Seen seen : SEEN) {
            assertThat(seen.headers).containsEntry("x-goog-api-key", KEY).doesNotContainKey("authorization");
            assertThat(seen.body.getJsonObject("voice").getMap()).containsEntry("name", "en-GB-Chirp3-HD-Aoede")
                    .containsEntry("languageCode", "en-GB");
            assertThat(seen.body.getJsonObject("audioConfig").getMap()).containsEntry("audioEncoding", "MULAW")
                    .containsEntry("sampleRateHertz", 8_000).containsEntry("speakingRate", 1.1);
        }
        assertThat(stream.characters()).isEqualTo("Hello there.".length() + "How can I help?".length());
        stream.close();
    }

    @Test
    void aBrowserCallGetsLinear16At16kWithoutItsHeader() throws Exception {
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(google(KEY, Map.of()), AudioFormat.PCM_16K, heard);
        stream.speak("u1", "In a browser.");
        heard.await();
        assertThat(heard.events).containsExactly("done:u1");
        assertThat(heard.audio.get("u1").toByteArray()).isEqualTo(audio("In a browser.", true));
        assertThat(SEEN).singleElement().satisfies(seen -> {
            assertThat(seen.body.getJsonObject("audioConfig").getMap()).containsEntry("audioEncoding", "LINEAR16")
                    .containsEntry("sampleRateHertz", 16_000).doesNotContainKey("speakingRate");
            assertThat(seen.body.getJsonObject("voice").getMap()).as("the catalog's defaults")
                    .containsEntry("name", "en-US-Chirp3-HD-Charon").containsEntry("languageCode", "en-US");
        });
        stream.close();
    }

    @Test
    void aRefusalFailsTheStreamWithGooglesWordsAfterOneRequest() throws Exception {
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(google(KEY, SETTINGS), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "refuse");
        heard.await();
        assertThat(heard.events).singleElement().asString().startsWith("failed:Google Cloud: HTTP 401")
                .contains("Request had invalid authentication credentials");
        assertThat(ATTEMPTS.get("refuse")).isEqualTo(1);
        assertThat(stream.characters()).isZero();
        stream.close();
    }

    @Test
    void aProviderThatNeverAnswersFailsTheStreamOnceTheBudgetIsSpent() throws Exception {
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(google(KEY, SETTINGS), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "silent");
        heard.await();
        assertThat(heard.events).singleElement().asString().startsWith("failed:Google Cloud:");
        assertThat(ATTEMPTS.get("silent")).isBetween(2, 3);
        stream.close();
    }

    @Test
    void anAnswerCutMidwayIsAskedAgainAndSpokenOnce() throws Exception {
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(google(KEY, SETTINGS), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "breaks off here.");
        heard.await();
        assertThat(heard.events).as("nothing of it had come: no restart").containsExactly("done:u1");
        assertThat(heard.audio.get("u1").toByteArray()).isEqualTo(audio("breaks off here.", false));
        assertThat(ATTEMPTS.get("breaks off here.")).isEqualTo(2);
        assertThat(stream.characters()).isEqualTo("breaks off here.".length());
        stream.close();
    }

    @Test
    void aCancelledSentenceIsResetAndTheNextOneIsSpoken() throws Exception {
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(google(KEY, SETTINGS), AudioFormat.MULAW_8K, heard);
        String cut = "long answer that the caller cuts short";
        stream.speak("u1", cut);
        long deadline = System.currentTimeMillis() + 5_000;
        while (SEEN.isEmpty() && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        Thread.sleep(100); // some of its answer is on its way
        stream.cancel("u1");
        stream.speak("u2", "After.");
        heard.await();
        assertThat(heard.events).containsExactly("done:u2");
        assertThat(heard.audio.get("u2").toByteArray()).isEqualTo(audio("After.", false));
        while (!RESET.containsKey(cut) && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertThat(RESET).as("Google saw the request reset").containsKey(cut);
        assertThat(heard.audio).doesNotContainKey("u1");
        assertThat(stream.characters()).as("none of the cut sentence came").isEqualTo("After.".length());
        stream.close();
    }

    @Test
    void aWavInAnotherShapeThanAskedIsConvertedAndNoWavIsTakenAsItIs() {
        ByteBuffer tone = ByteBuffer.allocate(16_000 * 2 / 2).order(ByteOrder.LITTLE_ENDIAN); // 0.5 s at 16 kHz
        for (int i = 0; i < 8_000; i++) {
            tone.putShort((short) (8_000 * Math.sin(2 * Math.PI * 440 * i / 16_000.0)));
        }
        byte[] mulaw = GoogleSpeech.audio(pcmWav(tone.array()), AudioFormat.MULAW_8K);
        assertThat(mulaw.length).as("half a second at 8 kHz").isBetween(3_990, 4_010);
        assertThat(Loudness.dbfs(G711.decode(Arrays.copyOfRange(mulaw, 400, 3_600)))).isBetween(-16.0, -9.0);
        byte[] raw = {1, 2, 3};
        assertThat(GoogleSpeech.audio(raw, AudioFormat.MULAW_8K)).isEqualTo(raw);
    }

    @Test
    void withoutAnApiKeyOrWithABadLocationItIsRefusedAtOpen() {
        assertThatThrownBy(() -> speech.open(google(null, Map.of("credentials", "{}")), AudioFormat.MULAW_8K,
                new SpeechRequestsTest.Heard(0))).isInstanceOf(UnsupportedSpeechProvider.class)
                .hasMessageContaining("needs an API key");
        ProviderApis google = new ProviderApis("http://x", "http://x", "v", "http://x", "http://x", "http://x", "v");
        assertThat(google.googleTts(null)).isEqualTo("https://texttospeech.googleapis.com");
        assertThat(google.googleTts("global")).isEqualTo("https://texttospeech.googleapis.com");
        assertThat(google.googleTts("us-central1")).isEqualTo("https://us-central1-texttospeech.googleapis.com");
        assertThatThrownBy(() -> google.googleTts("evil.example/x")).isInstanceOf(IllegalArgumentException.class);
        assertThat(SEEN).isEmpty();
    }

    @Test
    void theKeyIsCheckedWithTheLanguagesVoices() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(google(KEY, SETTINGS)).await().atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(checks.problem(google("wrong", SETTINGS)).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).contains("400", "API key not valid"));
        assertThat(new ArrayList<>(VOICE_LISTS)).containsExactly(KEY + " en-GB", "wrong en-GB");
        assertThat(SEEN).as("nothing synthesized, nothing billed").isEmpty();
    }
}
