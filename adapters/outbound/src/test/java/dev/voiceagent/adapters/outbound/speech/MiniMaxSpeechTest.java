package dev.voiceagent.adapters.outbound.speech;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.adapters.outbound.ProviderChecks;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.model.ModelService;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
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
 * MiniMax's T2A v2 streamed as a call speaks with it, against a local server that answers as MiniMax does: each request
 * checked (the Bearer key, the GroupId, the model, voice and speed, stream with the aggregated copy left out, PCM at the
 * call's rate), server-sent events with hex PCM split at odd byte counts and across reads, then the final event with
 * extra_info; the audio handed on in order (μ-law encoded for the phone, as it is in a browser). And the faults: a
 * refused key under 401 and under 200 (failed with MiniMax's words, asked once), a provider that never answers, error
 * events mid-stream (a rate limit: restarted and spoken whole; a bad voice: failed in its words), a stream that ends
 * without its final event (asked again), a cancelled sentence (its request reset, the next one spoken); the key check.
 */
class MiniMaxSpeechTest {

    private static final String KEY = "mm-key";
    private static final String LOGIN_FAIL = "{\"base_resp\":{\"status_code\":1004,\"status_msg\":\"login fail: Please"
            + " carry the API secret key in the 'Authorization' field of the request header\"}}";

    /** One synthesis request as the server saw it. */
    static final class Seen {
        final String path;
        final String query;
        final Map<String, String> headers = new HashMap<>();
        final JsonObject body;

        Seen(HttpServerRequest request, JsonObject body) {
            this.path = request.path();
            this.query = request.query();
            request.headers().forEach(h -> headers.put(h.getKey().toLowerCase(), h.getValue()));
            this.body = body;
        }

        String text() {
            return body.getString("text");
        }
    }

    private static final List<Seen> SEEN = new CopyOnWriteArrayList<>();
    private static final List<String> VOICE_LISTS = new CopyOnWriteArrayList<>();
    private static final Map<String, Integer> ATTEMPTS = new ConcurrentHashMap<>();
    private static final Map<String, Boolean> RESET = new ConcurrentHashMap<>();
    private static Vertx vertx;
    private static HttpServer server;
    private static String base;
    private static GuardedHttp http;
    private static ProviderApis apis;
    /** Patient enough for a loaded machine's first request: these tests are about what MiniMax answers. */
    private static SpeechProviders speech;
    /** A short time-out and budget, where running out of them is the point. */
    private static SpeechProviders impatient;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(MiniMaxSpeechTest::request);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + server.actualPort();
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofSeconds(10));
        apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v").pointing("minimax", base + "/v1");
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
        ATTEMPTS.clear();
        RESET.clear();
    }

    private static void request(HttpServerRequest request) {
        request.body().onSuccess(body -> {
            if (request.path().equals("/v1/get_voice")) {
                VOICE_LISTS.add(request.getHeader("Authorization") + " " + new JsonObject(body).getString("voice_type"));
                boolean good = ("Bearer " + KEY).equals(request.getHeader("Authorization"));
                request.response().putHeader("Content-Type", "application/json").end(good
                        ? "{\"system_voice\":[{\"voice_id\":\"English_Graceful_Lady\"}],\"base_resp\":{\"status_code\""
                                + ":0,\"status_msg\":\"success\"}}"
                        : "{\"base_resp\":{\"status_code\":2049,\"status_msg\":\"invalid api key\"}}");
            } else if (request.method().name().equals("POST") && request.path().endsWith("/v1/t2a_v2")) {
                synthesize(request, new JsonObject(body));
            } else {
                request.response().setStatusCode(404).end();
            }
        });
    }

    /**
     * Answers a sentence as MiniMax does. "refuse" is a 401, "refused quietly" the same refusal under 200, "silent"
     * never answers; the first time, "rate limited" and "bad voice" say an error after two audio events, "ends early"
     * stops before its final event; "long" comes slowly.
     */
    private static void synthesize(HttpServerRequest request, JsonObject body) {
        Seen seen = new Seen(request, body);
        SEEN.add(seen);
        String text = seen.text();
        int attempt = ATTEMPTS.merge(text, 1, Integer::sum);
        HttpServerResponse response = request.response();
        if (text.equals("refuse") || text.equals("refused quietly")) {
            response.setStatusCode(text.equals("refuse") ? 401 : 200).putHeader("Content-Type", "application/json")
                    .end(LOGIN_FAIL);
            return;
        }
        if (text.equals("silent")) {
            return;
        }
        int rate = body.getJsonObject("audio_setting").getInteger("sample_rate");
        byte[] pcm = pcm(text, rate);
        List<String> events = new ArrayList<>();
        int piece = 333; // odd: samples split across events
        for (int at = 0; at < pcm.length; at += piece) {
            events.add(event(new JsonObject().put("data", new JsonObject().put("audio", HexFormat.of().formatHex(
                    Arrays.copyOfRange(pcm, at, Math.min(pcm.length, at + piece)))).put("status", 1).put("ced", ""))
                    .put("trace_id", "t-1").put("base_resp", new JsonObject().put("status_code", 0)
                            .put("status_msg", ""))));
        }
        if (attempt == 1 && (text.startsWith("rate limited") || text.startsWith("bad voice"))) {
            events.subList(2, events.size()).clear();
            events.add(event(new JsonObject().put("trace_id", "t-1").put("base_resp", text.startsWith("rate")
                    ? new JsonObject().put("status_code", 1002).put("status_msg", "rate limit exceeded(RPM)")
                    : new JsonObject().put("status_code", 2013).put("status_msg", "invalid params, voice id not"
                            + " exist"))));
        } else if (!(attempt == 1 && text.startsWith("ends early"))) {
            events.add(event(new JsonObject().put("data", new JsonObject().put("audio", "").put("status", 2))
                    .put("extra_info", new JsonObject().put("audio_length", pcm.length / (rate / 500))
                            .put("audio_sample_rate", rate).put("usage_characters", text.length())
                            .put("audio_format", "pcm").put("audio_channel", 1))
                    .put("trace_id", "t-1").put("base_resp", new JsonObject().put("status_code", 0)
                            .put("status_msg", "success"))));
        }
        byte[] sse = String.join("", events).getBytes(StandardCharsets.UTF_8);
        response.setChunked(true).putHeader("Content-Type", "text/event-stream");
        response.closeHandler(v -> RESET.put(text, true));
        boolean slow = text.startsWith("long");
        stream(response, sse, 0, slow ? 400 : 1_000, slow ? 50 : 5); // reads that cut events anywhere
    }

    private static String event(JsonObject json) {
        return "data: " + json.encode() + "\n\n";
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

    /** A sentence's PCM at a rate: 10 ms a character, each sample its position's (so order and loss show). */
    static byte[] pcm(String text, int rate) {
        short[] samples = new short[text.length() * rate / 100];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = (short) (text.hashCode() + i * 37);
        }
        return Pcm16.bytes(samples);
    }

    private static ModelEndpoint miniMax(String key, Map<String, Object> settings, String baseUrl) {
        return new ModelEndpoint(ModelService.TTS, "minimax", (String) settings.get("model"), baseUrl,
                key == null ? List.of() : List.of(key), settings, false);
    }

    private static final Map<String, Object> SETTINGS = Map.of("model", "speech-2.8-turbo", "voice",
            "English_radiant_girl", "speed", 1.2, "group_id", "grp 1", "base_url", "https://api.minimax.io/v1/t2a_v2");

    private static ModelEndpoint configured(String key) {
        return miniMax(key, SETTINGS, "https://api.minimax.io/v1/t2a_v2");
    }

    @Test
    void eachSentenceIsStreamedAsEventsAndItsPcmEncodedToMulawInOrder() throws Exception {
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(2);
        TextToSpeech.Stream stream = speech.open(configured(KEY), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Hello there.");
        stream.speak("u2", "How can I help you today?");
        heard.await();
        assertThat(heard.events).containsExactlyInAnyOrder("done:u1", "done:u2");
        for (String[] said : new String[][] {{"u1", "Hello there."}, {"u2", "How can I help you today?"}}) {
            assertThat(heard.audio.get(said[0]).toByteArray()).as("every sample, in order, as μ-law")
                    .isEqualTo(G711.encode(Pcm16.samples(pcm(said[1], 8_000))));
        }
        assertThat(SEEN).extracting(Seen::text).containsOnly("Hello there.", "How can I help you today?");
        for (Seen seen : SEEN) {
            assertThat(seen.path).as("the installation's address").isEqualTo("/v1/t2a_v2");
            assertThat(seen.query).isEqualTo("GroupId=grp+1");
            assertThat(seen.headers).containsEntry("authorization", "Bearer " + KEY)
                    .containsEntry("content-type", "application/json");
            assertThat(seen.body.getString("model")).isEqualTo("speech-2.8-turbo");
            assertThat(seen.body.getBoolean("stream")).isTrue();
            assertThat(seen.body.getJsonObject("stream_options").getBoolean("exclude_aggregated_audio")).isTrue();
            assertThat(seen.body.getJsonObject("voice_setting").getMap()).containsEntry("voice_id",
                    "English_radiant_girl").containsEntry("speed", 1.2);
            assertThat(seen.body.getJsonObject("audio_setting").getMap()).containsEntry("format", "pcm")
                    .containsEntry("sample_rate", 8_000).containsEntry("channel", 1);
        }
        assertThat(stream.characters()).isEqualTo("Hello there.".length() + "How can I help you today?".length());
        stream.close();
    }

    @Test
    void aBrowserCallGets16kPcmAsItIsFromTheOrganizationsOwnEndpoint() throws Exception {
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(miniMax(KEY, Map.of(), base + "/own/v1"), AudioFormat.PCM_16K, heard);
        stream.speak("u1", "In a browser.");
        heard.await();
        assertThat(heard.events).containsExactly("done:u1");
        assertThat(heard.audio.get("u1").toByteArray()).isEqualTo(pcm("In a browser.", 16_000));
        assertThat(SEEN).singleElement().satisfies(seen -> {
            assertThat(seen.path).as("its base URL, /t2a_v2 added").isEqualTo("/own/v1/t2a_v2");
            assertThat(seen.query).as("no group id configured").isNull();
            assertThat(seen.body.getString("model")).isEqualTo("speech-2.8-hd");
            assertThat(seen.body.getJsonObject("voice_setting").getMap()).containsEntry("voice_id",
                    "English_Graceful_Lady").containsEntry("speed", 1.0);
            assertThat(seen.body.getJsonObject("audio_setting").getInteger("sample_rate")).isEqualTo(16_000);
        });
        stream.close();
    }

    @Test
    void aRefusedKeyFailsTheStreamWithMiniMaxsWordsAfterOneRequestUnder401Or200() throws Exception {
        for (String refusal : List.of("refuse", "refused quietly")) {
            SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
            TextToSpeech.Stream stream = speech.open(configured("wrong"), AudioFormat.MULAW_8K, heard);
            stream.speak("u1", refusal);
            heard.await();
            assertThat(heard.events).as(refusal).singleElement().asString().startsWith("failed:MiniMax: ")
                    .contains("login fail: Please carry the API secret key");
            assertThat(ATTEMPTS.get(refusal)).as(refusal).isEqualTo(1);
            assertThat(stream.characters()).isZero();
            stream.close();
        }
    }

    @Test
    void aProviderThatNeverAnswersFailsTheStreamOnceTheBudgetIsSpent() throws Exception {
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = impatient.open(configured(KEY), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "silent");
        heard.await();
        assertThat(heard.events).singleElement().asString().startsWith("failed:MiniMax:");
        assertThat(ATTEMPTS.get("silent")).isBetween(2, 3);
        stream.close();
    }

    @Test
    void aRateLimitMidStreamIsTriedAgainAndABadVoiceFailsInMiniMaxsWords() throws Exception {
        SpeechRequestsTest.Heard limited = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(configured(KEY), AudioFormat.MULAW_8K, limited);
        stream.speak("u1", "rate limited after a while.");
        limited.await();
        assertThat(limited.events).containsExactly("restart:u1", "done:u1");
        assertThat(limited.audio.get("u1").toByteArray()).as("whole, once")
                .isEqualTo(G711.encode(Pcm16.samples(pcm("rate limited after a while.", 8_000))));
        assertThat(stream.characters()).isEqualTo("rate limited after a while.".length());
        stream.close();

        SpeechRequestsTest.Heard refused = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream bad = speech.open(configured(KEY), AudioFormat.MULAW_8K, refused);
        bad.speak("u1", "bad voice after a while.");
        refused.await();
        assertThat(refused.events).singleElement().asString()
                .isEqualTo("failed:MiniMax: invalid params, voice id not exist (status_code 2013)");
        assertThat(ATTEMPTS.get("bad voice after a while.")).isEqualTo(1);
        bad.close();
    }

    @Test
    void aStreamThatEndsBeforeItsFinalEventIsAskedAgain() throws Exception {
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(configured(KEY), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "ends early, then whole.");
        heard.await();
        assertThat(heard.events).containsExactly("restart:u1", "done:u1");
        assertThat(heard.audio.get("u1").toByteArray())
                .isEqualTo(G711.encode(Pcm16.samples(pcm("ends early, then whole.", 8_000))));
        assertThat(ATTEMPTS.get("ends early, then whole.")).isEqualTo(2);
        stream.close();
    }

    @Test
    void aCancelledSentenceIsResetAndTheNextOneIsSpoken() throws Exception {
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(configured(KEY), AudioFormat.MULAW_8K, heard);
        String cut = "long answer that the caller cuts short";
        stream.speak("u1", cut);
        long deadline = System.currentTimeMillis() + 5_000;
        while (!heard.audio.containsKey("u1") && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        stream.cancel("u1");
        int sizeAtCancel = heard.audio.get("u1").size();
        stream.speak("u2", "After.");
        heard.await();
        assertThat(heard.events).containsExactly("done:u2");
        assertThat(heard.audio.get("u2").toByteArray()).isEqualTo(G711.encode(Pcm16.samples(pcm("After.", 8_000))));
        while (!RESET.containsKey(cut) && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertThat(RESET).as("MiniMax saw the request reset").containsKey(cut);
        assertThat(heard.audio.get("u1").size()).isEqualTo(sizeAtCancel).isLessThan(cut.length() * 80);
        assertThat(stream.characters()).isEqualTo(cut.length() + "After.".length());
        stream.close();
    }

    @Test
    void theKeyIsCheckedWithTheSystemVoicesAndARefusalUnder200IsSeen() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(configured(KEY)).await().atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(checks.problem(configured("wrong")).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Invalid MiniMax API key")
                        .contains("2049", "invalid api key"));
        assertThat(new ArrayList<>(VOICE_LISTS)).containsExactly("Bearer " + KEY + " system", "Bearer wrong system");
        assertThat(SEEN).as("nothing synthesized, nothing billed").isEmpty();
    }

    /** Events cut anywhere (mid-line, mid-sample), CRLF line ends and comments: the audio comes whole. */
    @Test
    void theDecoderReadsEventsSplitAnywhere() {
        SpeechRequests.Decoder decoder = MiniMaxSpeech.decoder(AudioFormat.PCM_16K);
        byte[] pcm = pcm("split", 16_000);
        String sse = event(new JsonObject().put("data", new JsonObject().put("audio", HexFormat.of().formatHex(pcm))
                .put("status", 1)).put("base_resp", new JsonObject().put("status_code", 0)))
                + ": a comment\r\n" + event(new JsonObject().put("data", new JsonObject().put("status", 2))
                .put("extra_info", new JsonObject().put("usage_characters", 5)));
        byte[] bytes = sse.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int at = 0; at < bytes.length; at += 7) {
            out.writeBytes(decoder.chunk(Arrays.copyOfRange(bytes, at, Math.min(bytes.length, at + 7))));
        }
        out.writeBytes(decoder.end());
        assertThat(out.toByteArray()).isEqualTo(pcm);
    }
}
