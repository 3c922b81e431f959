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
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.Signature;
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
 * Google Cloud Text-to-Speech's REST {@code text:synthesize} as a call speaks with it with a voice Google does not
 * stream (not Chirp 3 HD: {@link GoogleStreamingSpeechTest} has those), against a local server that
 * answers as Google does: each request checked (the API key in x-goog-api-key, the voice and language, the speaking
 * rate, MULAW at 8 kHz on the phone and LINEAR16 at 16 kHz in a browser, the sentence), the answer's JSON sent in pieces
 * with the audio in a WAV file whose header is stripped (a μ-law one with an 18-byte fmt and a fact chunk, as Google's
 * are). And the faults: a 401 (failed with Google's words, asked once), a provider that never answers, an answer cut
 * mid-way (asked again, spoken once), a sentence cancelled while its answer comes (its request reset, the next one
 * spoken); the key check, the language's voices. And a service account's key instead of an API key: the JWT bearer
 * grant at a local token endpoint that verifies the RS256 signature and claims, the token shared by sentences and
 * calls until near its expiry, a refused key failing the stream in Google's words, the check with a token.
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
    private static final List<String> TOKEN_REQUESTS = new CopyOnWriteArrayList<>();
    private static final List<String> PROBLEMS = new CopyOnWriteArrayList<>();
    /** The service accounts the token endpoint knows: their emails and public keys. */
    private static final Map<String, PublicKey> ACCOUNTS = new ConcurrentHashMap<>();
    private static final Map<String, Integer> ISSUED = new ConcurrentHashMap<>();
    private static KeyPair accountKey;
    private static KeyPair otherKey;
    private static final Map<String, Integer> ATTEMPTS = new ConcurrentHashMap<>();
    private static final Map<String, Boolean> RESET = new ConcurrentHashMap<>();
    private static Vertx vertx;
    private static HttpServer server;
    private static GuardedHttp http;
    private static ProviderApis apis;
    /** Patient enough for a loaded machine's first request: most tests are about what the provider answers. */
    private static SpeechProviders speech;
    /** A short time-out and budget, where running out of them is the point. */
    private static SpeechProviders impatient;
    /** The token endpoint's own address: the audience an assertion posted to it names. */
    private static String tokenUrl;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(GoogleSpeechTest::request);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        String base = "http://127.0.0.1:" + server.actualPort();
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofSeconds(10));
        apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v").pointing("google_tts", base)
                .pointing("google_oauth", base);
        tokenUrl = base + "/token";
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        accountKey = rsa.generateKeyPair();
        otherKey = rsa.generateKeyPair();
        speech = new SpeechProviders(http, apis, vertx, Duration.ofSeconds(10), 3, Duration.ofMillis(100),
                Duration.ofSeconds(10));
        impatient = new SpeechProviders(new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")),
                Duration.ofMillis(600)), apis, vertx, Duration.ofMillis(600), 3, Duration.ofMillis(100),
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
        TOKEN_REQUESTS.clear();
        PROBLEMS.clear();
        ATTEMPTS.clear();
        RESET.clear();
    }

    private static void request(HttpServerRequest request) {
        request.body().onSuccess(body -> {
            if (request.method().name().equals("POST") && request.path().equals("/token")) {
                token(request, body.toString(StandardCharsets.US_ASCII));
            } else if (request.method().name().equals("GET") && request.path().equals("/v1/voices")) {
                String auth = request.getHeader("x-goog-api-key") != null ? request.getHeader("x-goog-api-key")
                        : request.getHeader("Authorization");
                VOICE_LISTS.add(auth + " " + request.getParam("languageCode"));
                boolean good = KEY.equals(auth) || issued(auth);
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

    /** Whether an Authorization header carries a token the token endpoint issued. */
    private static boolean issued(String authorization) {
        return authorization != null && authorization.startsWith("Bearer ya29.")
                && ISSUED.containsKey(authorization.substring("Bearer ".length()));
    }

    /**
     * Google's token endpoint for the JWT bearer grant: the assertion's RS256 signature checked with the account's
     * public key and its claims with Google's rules (the audience this endpoint itself, where the assertion is posted,
     * not the key file's token_uri); a token an hour long ("short" accounts: 30 s), or invalid_grant.
     */
    private static void token(HttpServerRequest request, String form) {
        Map<String, String> fields = new HashMap<>();
        for (String pair : form.split("&")) {
            String[] kv = pair.split("=", 2);
            fields.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8), kv.length < 2 ? ""
                    : URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
        }
        String[] jwt = fields.getOrDefault("assertion", "").split("\\.");
        JsonObject claims = jwt.length == 3 ? new JsonObject(new String(Base64.getUrlDecoder().decode(jwt[1]),
                StandardCharsets.UTF_8)) : new JsonObject();
        String email = claims.getString("iss", "?");
        TOKEN_REQUESTS.add(email);
        boolean valid = false;
        try {
            JsonObject header = new JsonObject(new String(Base64.getUrlDecoder().decode(jwt[0]),
                    StandardCharsets.UTF_8));
            Signature rs256 = Signature.getInstance("SHA256withRSA");
            rs256.initVerify(ACCOUNTS.getOrDefault(email, otherKey.getPublic()));
            rs256.update((jwt[0] + "." + jwt[1]).getBytes(StandardCharsets.US_ASCII));
            valid = rs256.verify(Base64.getUrlDecoder().decode(jwt[2]));
            long now = System.currentTimeMillis() / 1_000;
            if (!"application/x-www-form-urlencoded".equals(request.getHeader("Content-Type"))
                    || !"urn:ietf:params:oauth:grant-type:jwt-bearer".equals(fields.get("grant_type"))
                    || !"RS256".equals(header.getString("alg")) || !"kid-1".equals(header.getString("kid"))
                    || !tokenUrl.equals(claims.getString("aud"))
                    || !"https://www.googleapis.com/auth/cloud-platform".equals(claims.getString("scope"))
                    || claims.getLong("exp") - claims.getLong("iat") != 3_600
                    || Math.abs(claims.getLong("iat") - now) > 60) {
                PROBLEMS.add("token request: " + request.headers() + " " + fields + " " + header + " " + claims);
            }
        } catch (Exception e) {
            PROBLEMS.add("token request: " + e);
        }
        if (!valid) {
            request.response().setStatusCode(400).putHeader("Content-Type", "application/json")
                    .end("{\"error\":\"invalid_grant\",\"error_description\":\"Invalid JWT Signature.\"}");
            return;
        }
        String token = "ya29." + email + "-" + TOKEN_REQUESTS.size();
        ISSUED.put(token, 1);
        request.response().putHeader("Content-Type", "application/json").end(new JsonObject()
                .put("access_token", token).put("expires_in", email.startsWith("short") ? 30 : 3_599)
                .put("token_type", "Bearer").encode());
    }

    /** A service account's JSON key, as the Google Cloud console downloads it. */
    private static String credentials(String email, KeyPair key) {
        ACCOUNTS.putIfAbsent(email, accountKey.getPublic());
        String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'})
                .encodeToString(key.getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n";
        return new JsonObject().put("type", "service_account").put("project_id", "voice-agent")
                .put("private_key_id", "kid-1").put("private_key", pem).put("client_email", email)
                .put("client_id", "1234").put("token_uri", "https://oauth2.googleapis.com/token").encodePrettily();
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
        if (text.equals("refuse") || !KEY.equals(request.getHeader("x-goog-api-key"))
                && !issued(request.getHeader("Authorization"))) {
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
            "en-GB-Neural2-A", "language", "en-GB", "speed", 1.1);

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
        assertThat(SEEN).extracting(Seen::text).containsOnly("Hello there.", "How can I help?");
        for (Seen seen : SEEN) {
            assertThat(seen.headers).containsEntry("x-goog-api-key", KEY).doesNotContainKey("authorization");
            assertThat(seen.body.getJsonObject("voice").getMap()).containsEntry("name", "en-GB-Neural2-A")
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
        TextToSpeech.Stream stream = speech.open(google(KEY, Map.of("voice", "en-US-Neural2-F")),
                AudioFormat.PCM_16K, heard);
        stream.speak("u1", "In a browser.");
        heard.await();
        assertThat(heard.events).containsExactly("done:u1");
        assertThat(heard.audio.get("u1").toByteArray()).isEqualTo(audio("In a browser.", true));
        assertThat(SEEN).singleElement().satisfies(seen -> {
            assertThat(seen.body.getJsonObject("audioConfig").getMap()).containsEntry("audioEncoding", "LINEAR16")
                    .containsEntry("sampleRateHertz", 16_000).doesNotContainKey("speakingRate");
            assertThat(seen.body.getJsonObject("voice").getMap()).as("the catalog's default language")
                    .containsEntry("name", "en-US-Neural2-F").containsEntry("languageCode", "en-US");
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
        TextToSpeech.Stream stream = impatient.open(google(KEY, SETTINGS), AudioFormat.MULAW_8K, heard);
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
    void withoutAKeyOrAnAccountOrWithABadLocationItIsRefusedAtOpen() {
        assertThatThrownBy(() -> speech.open(google(null, Map.of("credentials", " ")), AudioFormat.MULAW_8K,
                new SpeechRequestsTest.Heard(0))).isInstanceOf(UnsupportedSpeechProvider.class)
                .hasMessageContaining("needs an API key or a service account's credentials");
        assertThatThrownBy(() -> speech.open(google(null, Map.of("credentials", "{\"type\":\"authorized_user\"}")),
                AudioFormat.MULAW_8K, new SpeechRequestsTest.Heard(0))).isInstanceOf(UnsupportedSpeechProvider.class)
                .hasMessageContaining("of type authorized_user");
        assertThatThrownBy(() -> speech.open(google(null, Map.of("credentials", new JsonObject(credentials(
                "nokey@voice-agent.iam.gserviceaccount.com", accountKey)).put("private_key", "garbage").encode())),
                AudioFormat.MULAW_8K, new SpeechRequestsTest.Heard(0))).isInstanceOf(UnsupportedSpeechProvider.class)
                .hasMessageContaining("not an RSA key").hasMessageNotContaining("garbage");
        assertThatThrownBy(() -> speech.open(google(KEY, Map.of("location", "evil.example/x")), AudioFormat.MULAW_8K,
                new SpeechRequestsTest.Heard(0))).isInstanceOf(UnsupportedSpeechProvider.class);
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

    private static Map<String, Object> account(String credentials) {
        return Map.of("voice", "en-US-Neural2-F", "language", "en-US", "credentials", credentials);
    }

    @Test
    void aServiceAccountsTokenIsAskedOnceAndSharedBySentencesAndCalls() throws Exception {
        String email = "caller@voice-agent.iam.gserviceaccount.com";
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(2);
        TextToSpeech.Stream stream = speech.open(google(null, account(credentials(email, accountKey))),
                AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Hello there.");
        stream.speak("u2", "Both wait for one token.");
        heard.await();
        SpeechRequestsTest.Heard next = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream another = speech.open(google(null, account(credentials(email, accountKey))),
                AudioFormat.MULAW_8K, next);
        another.speak("u1", "Another call.");
        next.await();
        assertThat(new ArrayList<>(PROBLEMS)).isEmpty();
        assertThat(heard.events).containsExactlyInAnyOrder("done:u1", "done:u2");
        assertThat(next.events).containsExactly("done:u1");
        assertThat(heard.audio.get("u2").toByteArray()).isEqualTo(audio("Both wait for one token.", false));
        assertThat(TOKEN_REQUESTS).as("one token for all").containsExactly(email);
        assertThat(SEEN).extracting(Seen::text).containsOnly("Hello there.", "Both wait for one token.",
                "Another call.");
        assertThat(SEEN).allSatisfy(seen -> assertThat(seen.headers)
                .containsEntry("authorization", "Bearer ya29." + email + "-1").doesNotContainKey("x-goog-api-key"));
        stream.close();
        another.close();
    }

    @Test
    void aTokenNearItsExpiryIsAskedForAgain() throws Exception {
        String email = "short-lived@voice-agent.iam.gserviceaccount.com";
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(google(null, account(credentials(email, accountKey))),
                AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "First.");
        heard.await();
        SpeechRequestsTest.Heard later = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream again = speech.open(google(null, account(credentials(email, accountKey))),
                AudioFormat.MULAW_8K, later);
        again.speak("u1", "Second.");
        later.await();
        assertThat(later.events).containsExactly("done:u1");
        assertThat(TOKEN_REQUESTS).as("30 s is within the minute's margin").containsExactly(email, email);
        assertThat(SEEN).extracting(seen -> seen.headers.get("authorization"))
                .containsExactly("Bearer ya29." + email + "-1", "Bearer ya29." + email + "-2");
        stream.close();
        again.close();
    }

    @Test
    void aRefusedServiceAccountFailsTheStreamInGooglesWordsWithoutAnotherTry() throws Exception {
        String email = "revoked@voice-agent.iam.gserviceaccount.com";
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(google(null, account(credentials(email, otherKey))),
                AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Never spoken.");
        heard.await();
        assertThat(heard.events).singleElement().asString().isEqualTo("failed:Google Cloud: the service account "
                + email + " got no token (HTTP 400: invalid_grant: Invalid JWT Signature.)");
        assertThat(TOKEN_REQUESTS).containsExactly(email);
        assertThat(SEEN).isEmpty();
        stream.close();
    }

    @Test
    void aServiceAccountIsCheckedWithATokenAndTheLanguagesVoices() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        String good = "checked@voice-agent.iam.gserviceaccount.com";
        String bad = "refused@voice-agent.iam.gserviceaccount.com";
        assertThat(checks.problem(google(null, account(credentials(good, accountKey)))).await()
                .atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(checks.problem(google(null, account(credentials(bad, otherKey)))).await()
                .atMost(Duration.ofSeconds(5))).hasValueSatisfying(problem -> assertThat(problem)
                .startsWith("Google Cloud: the service account " + bad).contains("invalid_grant"));
        assertThat(checks.problem(google(null, Map.of())).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).contains("needs an API key or a service account"));
        assertThat(new ArrayList<>(VOICE_LISTS)).singleElement().asString().startsWith("Bearer ya29." + good);
        assertThat(TOKEN_REQUESTS).containsExactly(good, bad);
        assertThat(SEEN).isEmpty();
    }
}
