package dev.voiceagent.adapters.outbound.speech;

import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.SILENCE;
import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.await;
import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.sayPcm;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.adapters.outbound.ProviderChecks;
import dev.voiceagent.adapters.outbound.speech.FakeListenServer.Handshake;
import dev.voiceagent.adapters.outbound.speech.FakeListenServer.Session;
import dev.voiceagent.adapters.outbound.speech.SpeechTestKit.Heard;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sarvam's streaming transcription as a call listens with it, against a local server that answers as Sarvam's
 * {@code /speech-to-text/ws} does, an oracle of the audio ({@link FakeListenServer}): the session asked for (the key
 * in api-subscription-key, language-code, the model, 16 kHz pcm_s16le, voice-activity and flush signals), the audio as
 * JSON messages of base64 PCM (a phone's μ-law decoded and resampled to 16 kHz), Sarvam's own voice activity
 * (START_SPEECH when words come, END_SPEECH and the utterance's transcript when a message is silent after them), a
 * flush answered with the transcript of what it had not transcribed yet, and nothing else sent (no keep-alive). And
 * the faults: an upgrade refused with 403 and an error message (no second try), connections that time out, a socket
 * closed mid-utterance (opened again, the utterance heard once); and the key check, a job status asked for a job that
 * does not exist.
 */
class SarvamListenTest {

    private static final String KEY = "sk_sarvam";
    private static Vertx vertx;
    private static FakeListenServer server;
    private static GuardedHttp http;
    private static ProviderApis apis;
    private static SpeechProviders speech;
    /** The audio of each message as sent, decoded from base64. */
    private static final List<byte[]> AUDIO = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = new FakeListenServer(vertx, r -> KEY.equals(r.getHeader("api-subscription-key")) ? null : 403,
                SarvamListenTest::jobStatus, SarvamListenTest::serve);
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(800));
        apis = new ProviderApis(server.base + "/v1", server.base, "v", server.base, server.base, server.base, "v")
                .pointing("sarvam", server.base);
        speech = new SpeechProviders(http, apis, vertx, Duration.ofMillis(800), 3, Duration.ofMillis(200),
                Duration.ofSeconds(2));
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        server.clear();
        AUDIO.clear();
    }

    /** GET /speech-to-text/job/v1/{job}/status: a bad key is refused, a good one learns there is no such job. */
    private static void jobStatus(HttpServerRequest request) {
        boolean known = KEY.equals(request.getHeader("api-subscription-key"));
        request.response().setStatusCode(known ? 404 : 403).putHeader("Content-Type", "application/json")
                .end(known ? "{\"error\":{\"message\":\"Job not found\",\"code\":\"not_found_error\"}}"
                        : "{\"error\":{\"message\":\"Invalid API key\",\"code\":\"invalid_api_key_error\"}}");
    }

    /** Sarvam: JSON audio, its own voice activity, a flush; an error message for the "hi-XX" language. */
    private static void serve(Session session) {
        if ("xx-XX".equals(session.params.get("language-code"))) {
            session.ws.writeTextMessage(new JsonObject().put("type", "error").put("data", new JsonObject()
                    .put("error", "Invalid language code: xx-XX").put("code", "invalid_request_error")).encode());
            session.ws.close((short) 1008, "invalid request");
            return;
        }
        boolean[] speaking = {false};
        session.ws.textMessageHandler(text -> {
            JsonObject json = new JsonObject(text);
            if (json.containsKey("audio")) {
                JsonObject audio = json.getJsonObject("audio");
                assertThat(audio.getString("encoding")).isEqualTo("audio/wav");
                assertThat(audio.getInteger("sample_rate")).isEqualTo(16_000);
                byte[] pcm = Base64.getDecoder().decode(audio.getString("data"));
                AUDIO.add(pcm);
                int before = session.frames.size();
                session.heard(pcm, 640);
                List<Integer> these = session.frames.subList(before, session.frames.size());
                boolean words = these.stream().anyMatch(w -> w != SILENCE);
                if (words && !speaking[0]) {
                    speaking[0] = true;
                    session.ws.writeTextMessage(signal("START_SPEECH"));
                } else if (!words && speaking[0]) { // a silent message after words: the utterance ended
                    speaking[0] = false;
                    session.ws.writeTextMessage(signal("END_SPEECH"));
                    session.ws.writeTextMessage(data(String.join(" ", session.settle())));
                }
                return;
            }
            session.received.add(json.getString("type"));
            if ("flush".equals(json.getString("type")) && session.settled < session.frames.size()) {
                speaking[0] = false;
                session.ws.writeTextMessage(data(String.join(" ", session.settle())));
            }
        });
    }

    private static String signal(String type) {
        return new JsonObject().put("type", "events").put("data", new JsonObject().put("signal_type", type)
                .put("occured_at", System.currentTimeMillis() / 1_000.0)).encode();
    }

    private static String data(String transcript) {
        return new JsonObject().put("type", "data").put("data", new JsonObject().put("request_id", "r")
                .put("transcript", transcript).put("language_code", "en-IN")
                .put("metrics", new JsonObject().put("audio_duration", 1.0).put("processing_latency", 0.1))).encode();
    }

    private static ModelEndpoint sarvam(String key, String language) {
        return new ModelEndpoint(ModelService.STT, "sarvam", "saarika:v2.5", null, List.of(key),
                Map.of("provider", "sarvam", "model", "saarika:v2.5", "language", language), false);
    }

    private static SarvamListen listen(Heard heard, Duration timeout) {
        String url = server.ws() + SarvamListen.query("saarika:v2.5", "unknown");
        return new SarvamListen(() -> http.webSocket(url, Map.of("api-subscription-key", KEY), timeout, true),
                vertx, new RetryBudget(3, Duration.ofMillis(200), Duration.ofSeconds(2)), AudioFormat.PCM_16K, heard);
    }

    @Test
    void theSessionIsAskedFor16KhzPcmAndAFlushIsAnsweredByTheUtterancesFinal() throws Exception {
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(sarvam(KEY, "unknown").withKeyterms(List.of("Acme Pay")),
                AudioFormat.PCM_16K, heard);
        await(() -> server.sessions.size() == 1, "the session");
        Session session = server.sessions.getFirst();
        assertThat(session.path).isEqualTo("/speech-to-text/ws");
        assertThat(session.headers.get("api-subscription-key")).isEqualTo(KEY);
        assertThat(session.params.get("language-code")).isEqualTo("unknown");
        assertThat(session.params.get("model")).isEqualTo("saarika:v2.5");
        assertThat(session.params.get("sample_rate")).isEqualTo("16000");
        assertThat(session.params.get("input_audio_codec")).isEqualTo("pcm_s16le");
        assertThat(session.params.get("vad_signals")).isEqualTo("true");
        assertThat(session.params.get("flush_signal")).isEqualTo("true");
        assertThat(session.params.names()).as("no key terms: these models take none")
                .doesNotContain("keyterms", "prompt");

        sayPcm(stream, 1, 10);
        sayPcm(stream, 2, 7); // 340 ms: three messages of 100 ms, 40 ms not yet one
        await(() -> session.messages.size() == 3, "three messages");
        stream.finalizeNow();
        await(() -> heard.finals().size() == 1, "the utterance's final");
        assertThat(heard.events).as("Sarvam gives no interims").containsExactly("final:where is");
        assertThat(session.messages).as("the 40 ms left go before the flush")
                .containsExactly(3_200, 3_200, 3_200, 1_280);
        assertThat(session.received).containsExactly("audio", "audio", "audio", "audio", "flush");
        stream.close();
        await(session.ws::isClosed, "closed at the end");
        assertThat(stream.seconds()).isEqualTo(0.34);

        AUDIO.clear();
        Heard phone = new Heard();
        SpeechToText.Stream mulaw = speech.open(sarvam(KEY, "hi-IN"), AudioFormat.MULAW_8K, phone);
        await(() -> server.sessions.size() == 2, "the phone's session");
        assertThat(server.sessions.get(1).params.get("language-code")).isEqualTo("hi-IN");
        byte[] frame = new byte[160];
        Arrays.fill(frame, G711.encode(8_000));
        for (int i = 0; i < 12; i++) { // 240 ms: 16 kHz PCM, less the resampler's 2 ms, is two messages
            mulaw.audio(frame);
        }
        await(() -> AUDIO.size() == 2, "the phone's audio");
        assertThat(AUDIO).as("100 ms of 16 kHz 16-bit PCM a message").allSatisfy(a -> assertThat(a).hasSize(3_200));
        short[] samples = Pcm16.samples(AUDIO.get(1));
        assertThat(samples[800]).as("the μ-law decoded, resampled").isBetween((short) (G711.decode(frame[0]) * 0.95),
                (short) (G711.decode(frame[0]) * 1.05));
        assertThat(mulaw.seconds()).as("the caller's audio, as the call had it").isEqualTo(0.24);
        mulaw.close();
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
    }

    @Test
    void anUtteranceSarvamsVoiceActivityEndsIsAFinalAsItComesAndIsNotSentAgainAfterADrop() throws Exception {
        Heard heard = new Heard();
        SarvamListen stream = listen(heard, Duration.ofMillis(800));
        await(() -> server.sessions.size() == 1, "the first session");
        sayPcm(stream, 0, 10);
        sayPcm(stream, SILENCE, 5); // Sarvam hears the speech end
        await(() -> heard.finals().size() == 1, "Sarvam's own final");
        assertThat(heard.finals()).containsExactly("final:hello");

        sayPcm(stream, 3, 10); // "my" reaches the first session, then Sarvam drops it mid-utterance
        await(() -> server.sessions.getFirst().frames.size() == 25, "the utterance's start at the first session");
        server.handshakes.add(Handshake.accept(300));
        server.sessions.getFirst().ws.close((short) 1011, "internal error");
        await(() -> server.upgradesAt.size() == 2, "opened again at once");
        sayPcm(stream, 4, 10); // "order": said during the gap
        await(() -> server.sessions.size() == 2, "the second session");
        stream.finalizeNow();
        await(() -> heard.finals().size() == 2, "the utterance across the drop");
        assertThat(heard.finals()).containsExactly("final:hello", "final:my order");
        Session second = server.sessions.get(1);
        assertThat(second.frames).as("the unsettled utterance, not the settled one").doesNotContain(0)
                .startsWith(3, 3, 3).endsWith(4).hasSize(20);
        assertThat(second.received).containsExactly("audio", "audio", "audio", "audio", "flush");
        assertThat(stream.seconds()).as("the caller's audio counted once").isEqualTo(0.7);
        stream.close();
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
    }

    @Test
    void aRefusedKeyOrAnErrorMessageFailsTheStreamOnceWithSarvamsWordsAndIsNotTriedAgain() throws Exception {
        Heard refused = new Heard();
        SpeechToText.Stream stream = speech.open(sarvam("wrong", "unknown"), AudioFormat.MULAW_8K, refused);
        stream.audio(new byte[160]);
        await(() -> !refused.events.isEmpty(), "the refusal");
        Thread.sleep(500);
        assertThat(refused.events).singleElement().asString().startsWith("failed:Sarvam").contains("403");
        assertThat(server.upgradesAt).as("a refused key is not worth another try").hasSize(1);

        server.clear();
        Heard error = new Heard();
        speech.open(sarvam(KEY, "xx-XX"), AudioFormat.MULAW_8K, error);
        await(() -> !error.events.isEmpty(), "the error message");
        Thread.sleep(500);
        assertThat(error.events).containsExactly(
                "failed:Sarvam: Invalid language code: xx-XX (invalid_request_error)");
        assertThat(server.upgradesAt).hasSize(1);
    }

    @Test
    void aConnectionThatTimesOutIsTriedAgainAndTheAudioSaidMeanwhileIsHeard() throws Exception {
        server.handshakes.add(Handshake.hang());
        Heard heard = new Heard();
        SarvamListen stream = listen(heard, Duration.ofMillis(400));
        sayPcm(stream, 1, 10);
        await(() -> server.sessions.size() == 1, "connected on the second try");
        stream.finalizeNow();
        await(() -> heard.finals().size() == 1, "the utterance");
        assertThat(heard.finals()).containsExactly("final:where");
        assertThat(server.secondTryAfterMs()).as("the time limit, then a backoff").isGreaterThanOrEqualTo(450);
        stream.close();

        server.clear();
        for (int i = 0; i < 5; i++) {
            server.handshakes.add(Handshake.hang());
        }
        Heard failed = new Heard();
        listen(failed, Duration.ofMillis(400)).audio(new byte[640]);
        await(() -> !failed.events.isEmpty(), "the failure");
        Thread.sleep(300);
        assertThat(failed.events).singleElement().asString().startsWith("failed:Sarvam: Could not reach 127.0.0.1");
        assertThat(server.upgradesAt).as("three tries").hasSize(3);
    }

    @Test
    void theKeyIsCheckedWithTheStatusOfAJobThatDoesNotExist() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(sarvam(KEY, "unknown")).await().atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(server.requests).singleElement().satisfies(r -> {
            assertThat(r.method().name()).isEqualTo("GET");
            assertThat(r.path()).isEqualTo("/speech-to-text/job/v1/voiceagent-key-check/status");
        });
        assertThat(checks.problem(sarvam("wrong", "unknown")).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Invalid Sarvam API key")
                        .contains("403", "Invalid API key"));
        assertThat(server.upgradesAt).isEmpty();
    }
}
