package dev.voiceagent.adapters.outbound.speech;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.UnsupportedSpeechProvider;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Loudness;
import dev.voiceagent.domain.model.ModelService;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Deepgram Aura ({@code POST /v1/speak}) and OpenAI speech ({@code POST /audio/speech}) as the voice runtime speaks to
 * them, against a local server that checks each request and answers as they do: audio streamed in chunks (Aura in
 * μ-law 8 kHz as asked, OpenAI in 24 kHz PCM split at odd byte counts), a refusal, a stream cut by a barge-in, a
 * provider that never answers; a sentence refused once with 500 and one cut after its first audio, both asked again.
 */
class SpeechRequestsTest {

    private static final List<String> PROBLEMS = new CopyOnWriteArrayList<>();
    private static final List<String> TEXTS = new CopyOnWriteArrayList<>();
    private static final AtomicInteger OPEN = new AtomicInteger();
    private static final AtomicInteger MOST_OPEN = new AtomicInteger();
    private static final Map<String, Boolean> RESET = new ConcurrentHashMap<>();
    private static final Map<String, Integer> ATTEMPTS = new ConcurrentHashMap<>();
    private static HttpServer server;
    private static Vertx vertx;
    private static SpeechProviders speech;

    @BeforeAll
    static void start() throws IOException {
        vertx = Vertx.vertx();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/v1/speak", SpeechRequestsTest::aura);
        server.createContext("/v1/audio/speech", SpeechRequestsTest::openAi);
        server.createContext("/speaches/v1/audio/speech", SpeechRequestsTest::speaches);
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        GuardedHttp http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(800));
        speech = new SpeechProviders(http, new ProviderApis(base + "/v1", base, "v", base, base, base, "v"),
                vertx, Duration.ofMillis(800), 3, Duration.ofMillis(100),
                Duration.ofSeconds(1));
    }

    @AfterAll
    static void stop() {
        server.stop(0);
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        PROBLEMS.clear();
        TEXTS.clear();
        RESET.clear();
        ATTEMPTS.clear();
        MOST_OPEN.set(0);
    }

    private static void aura(HttpExchange exchange) throws IOException {
        String query = exchange.getRequestURI().getQuery();
        if (!"POST".equals(exchange.getRequestMethod())
                || !"model=aura-2-thalia-en&encoding=mulaw&sample_rate=8000&container=none".equals(query)
                || !"Token dg-key".equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            PROBLEMS.add("aura: " + exchange.getRequestMethod() + " " + query + " "
                    + exchange.getRequestHeaders().getFirst("Authorization"));
        }
        String text = new JsonObject(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8))
                .getString("text");
        answer(exchange, text, text.length() * 80, 3, (byte) 0x10);
    }

    private static void openAi(HttpExchange exchange) throws IOException {
        JsonObject body = new JsonObject(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        if (!"Bearer sk-key".equals(exchange.getRequestHeaders().getFirst("Authorization"))
                || !"gpt-4o-mini-tts".equals(body.getString("model")) || !"coral".equals(body.getString("voice"))
                || !"pcm".equals(body.getString("response_format"))) {
            PROBLEMS.add("openai: " + body.encode());
        }
        answer(exchange, body.getString("input"), -1, 0, (byte) 0);
    }

    /** A self-hosted OpenAI-compatible server (Speaches, Kokoro-FastAPI): its own address, no key. */
    private static void speaches(HttpExchange exchange) throws IOException {
        JsonObject body = new JsonObject(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        if (exchange.getRequestHeaders().containsKey("Authorization") || !"kokoro".equals(body.getString("model"))
                || !"af_heart".equals(body.getString("voice")) || !"pcm".equals(body.getString("response_format"))) {
            PROBLEMS.add("speaches: " + exchange.getRequestHeaders().keySet() + " " + body.encode());
        }
        answer(exchange, body.getString("input"), -1, 0, (byte) 0);
    }

    /**
     * Streams the text's audio; "refuse" is a 401, "silent" never answers, "long" streams for seconds; "flaky" is a 500
     * the first time, "breaks" is cut after its first piece the first time.
     */
    private static void answer(HttpExchange exchange, String text, int bytes, int pieces, byte value) {
        TEXTS.add(text);
        int attempt = ATTEMPTS.merge(text, 1, Integer::sum);
        MOST_OPEN.accumulateAndGet(OPEN.incrementAndGet(), Math::max);
        try (exchange) {
            if (text.equals("flaky") && attempt == 1) {
                byte[] error = "{\"err_code\":\"INTERNAL\",\"err_msg\":\"try again\"}".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(500, error.length);
                exchange.getResponseBody().write(error);
                return;
            }
            if (text.startsWith("breaks") && attempt == 1) {
                byte[] audio = value == 0 ? sine24k(500) : filled(bytes, value);
                exchange.sendResponseHeaders(200, audio.length); // promised whole, cut after its first piece
                exchange.getResponseBody().write(audio, 0, audio.length / 3);
                exchange.getResponseBody().flush();
                Thread.sleep(50);
                exchange.getResponseBody().close(); // too few bytes: the connection is closed
                return;
            }
            if (text.equals("refuse")) {
                byte[] error = "{\"err_code\":\"INVALID_AUTH\",\"err_msg\":\"Invalid credentials.\"}"
                        .getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(401, error.length);
                exchange.getResponseBody().write(error);
                return;
            }
            if (text.equals("silent")) {
                Thread.sleep(3_000);
                return;
            }
            Thread.sleep(40); // the provider's time to first audio
            exchange.getResponseHeaders().add("Content-Type", "application/octet-stream");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            byte[] audio = value == 0 ? sine24k(text.startsWith("long") ? 5_000 : 500) : filled(bytes, value);
            int piece = value == 0 ? 1_001 : audio.length / pieces + 1; // OpenAI: samples split across chunks
            for (int at = 0; at < audio.length; at += piece) {
                out.write(audio, at, Math.min(piece, audio.length - at));
                out.flush();
                Thread.sleep(text.startsWith("long") ? 50 : 10);
            }
        } catch (IOException | InterruptedException e) {
            RESET.put(text, true); // the client reset the stream
        } finally {
            OPEN.decrementAndGet();
        }
    }

    private static byte[] filled(int n, byte value) {
        byte[] bytes = new byte[n];
        Arrays.fill(bytes, value);
        return bytes;
    }

    /** A 440 Hz tone as OpenAI's pcm: 24 kHz, 16-bit little-endian. */
    private static byte[] sine24k(int millis) {
        ByteBuffer buffer = ByteBuffer.allocate(24 * millis * 2).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 24 * millis; i++) {
            buffer.putShort((short) (8_000 * Math.sin(2 * Math.PI * 440 * i / 24_000.0)));
        }
        return buffer.array();
    }

    private static ModelEndpoint endpoint(String provider, Map<String, Object> settings, String key) {
        return new ModelEndpoint(ModelService.TTS, provider, (String) settings.get("model"), null, List.of(key),
                settings, false);
    }

    /** What a stream told its listener. */
    static final class Heard implements TextToSpeech.Listener {
        final Map<String, ByteArrayOutputStream> audio = new ConcurrentHashMap<>();
        final List<String> events = new CopyOnWriteArrayList<>();
        final CountDownLatch settled;

        Heard(int utterances) {
            settled = new CountDownLatch(utterances);
        }

        @Override
        public void audio(String utterance, byte[] bytes) {
            audio.computeIfAbsent(utterance, u -> new ByteArrayOutputStream()).writeBytes(bytes);
        }

        @Override
        public void done(String utterance) {
            events.add("done:" + utterance);
            settled.countDown();
        }

        @Override
        public void restart(String utterance) {
            events.add("restart:" + utterance);
            audio.remove(utterance); // what came before is forgotten
        }

        @Override
        public void failed(String message) {
            events.add("failed:" + message);
            settled.countDown();
        }

        void await() throws InterruptedException {
            assertThat(settled.await(10, TimeUnit.SECONDS)).as("events %s", events).isTrue();
        }
    }

    @Test
    void auraSpeaksEachSentenceInTheCallsOwnFormatWithAtMostThreeRequestsAtOnce() throws Exception {
        Heard heard = new Heard(5);
        TextToSpeech.Stream stream = speech.open(endpoint("deepgram", Map.of("voice", "aura-2-thalia-en"), "dg-key"),
                AudioFormat.MULAW_8K, heard);
        List<String> sentences = List.of("One.", "Two two.", "Three three.", "Four four four.", "Five.");
        for (int i = 0; i < sentences.size(); i++) {
            stream.speak("u" + i, sentences.get(i));
        }
        heard.await();
        assertThat(PROBLEMS).isEmpty();
        assertThat(TEXTS).containsExactlyInAnyOrderElementsOf(sentences);
        assertThat(MOST_OPEN.get()).isBetween(1, SpeechRequests.IN_FLIGHT);
        assertThat(heard.events).containsExactlyInAnyOrder("done:u0", "done:u1", "done:u2", "done:u3", "done:u4");
        for (int i = 0; i < sentences.size(); i++) { // passed through untouched: μ-law as Deepgram sent it
            byte[] audio = heard.audio.get("u" + i).toByteArray();
            assertThat(audio).hasSize(sentences.get(i).length() * 80).containsOnly((byte) 0x10);
        }
        assertThat(stream.characters()).isEqualTo(sentences.stream().mapToInt(String::length).sum());
        stream.close();
    }

    @Test
    void openAiSpeechIsResampledFrom24kPcmToMulaw8kAsItStreams() throws Exception {
        Heard heard = new Heard(1);
        TextToSpeech.Stream stream = speech.open(endpoint("openai", Map.of("model", "gpt-4o-mini-tts", "voice",
                "coral"), "sk-key"), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Hello there.");
        heard.await();
        assertThat(PROBLEMS).isEmpty();
        assertThat(heard.events).containsExactly("done:u1");
        byte[] audio = heard.audio.get("u1").toByteArray();
        assertThat(audio.length).as("half a second at 8 kHz").isBetween(3_990, 4_010);
        short[] samples = G711.decode(Arrays.copyOfRange(audio, 400, 3_600));
        assertThat(Loudness.dbfs(samples)).as("the tone kept its level").isBetween(-16.0, -9.0);
        int crossings = 0;
        for (int i = 1; i < samples.length; i++) {
            crossings += (samples[i - 1] < 0) != (samples[i] < 0) ? 1 : 0;
        }
        assertThat(crossings / 2.0 / (samples.length / 8_000.0)).as("still 440 Hz").isBetween(430.0, 450.0);
        stream.close();
    }

    @Test
    void aSelfHostedOpenAiCompatibleVoiceIsSpokenToAtItsOwnAddressWithoutAKey() throws Exception {
        Heard heard = new Heard(1);
        String own = "http://127.0.0.1:" + server.getAddress().getPort() + "/speaches/v1";
        TextToSpeech.Stream stream = speech.open(new ModelEndpoint(ModelService.TTS, "speaches", "kokoro", own,
                List.of(), Map.of("model", "kokoro", "voice", "af_heart", "base_url", own), false),
                AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Hello from a local voice.");
        heard.await();
        assertThat(new ArrayList<>(PROBLEMS)).isEmpty();
        assertThat(heard.events).containsExactly("done:u1");
        assertThat(heard.audio.get("u1").size()).as("half a second at 8 kHz").isBetween(3_990, 4_010);
        stream.close();
    }

    @Test
    void aCancelledSentenceIsResetAtTheProviderAndNoMoreOfItsAudioArrives() throws Exception {
        Heard heard = new Heard(1);
        TextToSpeech.Stream stream = speech.open(endpoint("openai", Map.of("model", "gpt-4o-mini-tts", "voice",
                "coral"), "sk-key"), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "long answer that the caller cuts short");
        Thread.sleep(500);
        stream.cancel("u1");
        int sizeAtCancel = heard.audio.containsKey("u1") ? heard.audio.get("u1").size() : 0;
        stream.speak("u2", "After.");
        heard.await();
        Thread.sleep(300);
        assertThat(heard.events).containsExactly("done:u2");
        assertThat(heard.audio.get("u1").size()).isEqualTo(sizeAtCancel).isLessThan(8 * 2_000);
        long deadline = System.currentTimeMillis() + 3_000;
        while (!RESET.containsKey("long answer that the caller cuts short") && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        assertThat(RESET).as("the provider saw the stream reset").containsKey("long answer that the caller cuts short");
        stream.close();
    }

    @Test
    void aRefusalOrAProviderThatNeverAnswersFailsTheStreamWithItsReason() throws Exception {
        Heard refused = new Heard(1);
        speech.open(endpoint("deepgram", Map.of("voice", "aura-2-thalia-en"), "dg-key"), AudioFormat.MULAW_8K,
                refused).speak("u1", "refuse");
        refused.await();
        assertThat(refused.events).singleElement().asString().startsWith("failed:Deepgram: HTTP 401")
                .contains("Invalid credentials.");

        Heard silent = new Heard(1);
        speech.open(endpoint("deepgram", Map.of("voice", "aura-2-thalia-en"), "dg-key"), AudioFormat.MULAW_8K,
                silent).speak("u1", "silent");
        silent.await();
        assertThat(silent.events).singleElement().asString().startsWith("failed:Deepgram:");

        assertThatThrownBy(() -> speech.open(endpoint("nosuch", Map.of(), "k"), AudioFormat.MULAW_8K,
                new Heard(0))).isInstanceOf(UnsupportedSpeechProvider.class)
                .hasMessageContaining("cannot use Nosuch for text-to-speech");
        assertThatThrownBy(() -> speech.open(new ModelEndpoint(ModelService.TTS, "deepgram", null, null, List.of(),
                Map.of(), false), AudioFormat.MULAW_8K, new Heard(0))).isInstanceOf(UnsupportedSpeechProvider.class)
                .hasMessageContaining("no API key");
        assertThat(new ArrayList<>(PROBLEMS)).isEmpty();
    }

    @Test
    void aSentenceRefusedOnceWithA500IsAskedAgainAndCountedOnce() throws Exception {
        Heard heard = new Heard(2);
        TextToSpeech.Stream stream = speech.open(endpoint("deepgram", Map.of("voice", "aura-2-thalia-en"), "dg-key"),
                AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "flaky");
        stream.speak("u2", "Then.");
        heard.await();
        assertThat(heard.events).containsExactlyInAnyOrder("done:u1", "done:u2");
        assertThat(TEXTS).filteredOn("flaky"::equals).hasSize(2);
        assertThat(heard.audio.get("u1").toByteArray()).hasSize(5 * 80).containsOnly((byte) 0x10);
        assertThat(stream.characters()).as("each sentence once").isEqualTo("flaky".length() + "Then.".length());
        stream.close();
    }

    @Test
    void aSentenceCutAfterSomeOfItsAudioIsRestartedAndSpokenWhole() throws Exception {
        Heard heard = new Heard(1);
        TextToSpeech.Stream stream = speech.open(endpoint("deepgram", Map.of("voice", "aura-2-thalia-en"), "dg-key"),
                AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "breaks off");
        heard.await();
        assertThat(heard.events).containsExactly("restart:u1", "done:u1");
        assertThat(heard.audio.get("u1").toByteArray()).as("the whole sentence after the restart")
                .hasSize("breaks off".length() * 80).containsOnly((byte) 0x10);
        assertThat(ATTEMPTS.get("breaks off")).isEqualTo(2);
        assertThat(stream.characters()).isEqualTo("breaks off".length());

        Heard resampled = new Heard(1);
        TextToSpeech.Stream openAi = speech.open(endpoint("openai", Map.of("model", "gpt-4o-mini-tts", "voice",
                "coral"), "sk-key"), AudioFormat.MULAW_8K, resampled);
        openAi.speak("u1", "breaks too");
        resampled.await();
        assertThat(resampled.events).containsExactly("restart:u1", "done:u1");
        assertThat(resampled.audio.get("u1").size()).as("half a second at 8 kHz, once").isBetween(3_990, 4_010);
        stream.close();
        openAi.close();
    }

    @Test
    void aCancelledSentenceCountsOnlyWhenSomeOfItsAudioCame() throws Exception {
        Heard heard = new Heard(1);
        TextToSpeech.Stream stream = speech.open(endpoint("openai", Map.of("model", "gpt-4o-mini-tts", "voice",
                "coral"), "sk-key"), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "long answer heard in part");
        Thread.sleep(400);
        stream.cancel("u1");
        stream.speak("u2", "silent");
        stream.cancel("u2"); // nothing of it came
        stream.speak("u3", "Fine.");
        heard.await();
        assertThat(heard.events).containsExactly("done:u3");
        assertThat(stream.characters()).isEqualTo("long answer heard in part".length() + "Fine.".length());
        stream.close();
        for (int i = 0; i < 250 && OPEN.get() > 0; i++) {
            Thread.sleep(20); // the silent answer's server thread, before another test counts requests
        }
    }
}
