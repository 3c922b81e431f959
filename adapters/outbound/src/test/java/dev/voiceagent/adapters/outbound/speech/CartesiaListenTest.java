package dev.voiceagent.adapters.outbound.speech;

import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.SILENCE;
import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.await;
import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.say;
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
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Cartesia's realtime transcription as a call listens with it, against a local server that answers as Cartesia's
 * {@code /stt/websocket} does, an oracle of the audio ({@link FakeListenServer}): the session asked for (the key in
 * X-API-Key, the Cartesia-Version, the model, language, the call's encoding and rate, keyterms for ink-2 only), the
 * audio in 100 ms binary messages, an interim transcript (a delta since the last final) for each message that carries
 * words, {@code finalize} answered with the finals still owed (deltas, split in two when they can be) and
 * {@code flush_done}, {@code done} answered with {@code done} and a close, and nothing else sent (no keep-alive). And
 * the faults: an upgrade refused with 401 and an error message for a bad model (no second try), connections that time
 * out, a socket closed mid-line and an error message with a 5xx (opened again, the line heard once); and the key
 * check, Cartesia's voice list.
 */
class CartesiaListenTest {

    private static final String KEY = "sk_car_key";
    private static Vertx vertx;
    private static FakeListenServer server;
    private static GuardedHttp http;
    private static ProviderApis apis;
    private static SpeechProviders speech;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = new FakeListenServer(vertx, r -> KEY.equals(r.getHeader("X-API-Key")) ? null : 401,
                CartesiaListenTest::voices, CartesiaListenTest::serve);
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(800));
        apis = new ProviderApis(server.base + "/v1", server.base, "v", server.base, server.base, server.base,
                "2025-04-16");
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
    }

    /** GET /voices: the key check. */
    private static void voices(io.vertx.core.http.HttpServerRequest request) {
        boolean known = ("Bearer " + KEY).equals(request.getHeader("Authorization"));
        request.response().setStatusCode(known ? 200 : 401).putHeader("Content-Type", "application/json")
                .end(known ? "{\"data\":[],\"has_more\":false}" : "{\"error\":\"Invalid API key\"}");
    }

    /** Cartesia: a bad model is an error message after the upgrade; then the conversation. */
    private static void serve(Session session) {
        if ("no-such-model".equals(session.params.get("model"))) {
            session.ws.writeTextMessage(new JsonObject().put("type", "error").put("title", "Invalid model")
                    .put("message", "The model is not valid, make sure it is a valid model ID.")
                    .put("error_code", "model_not_found").put("status_code", 400).encode());
            session.ws.close((short) 1008, "invalid model");
            return;
        }
        int frameBytes = "pcm_mulaw".equals(session.params.get("encoding")) ? 160 : 640;
        session.ws.binaryMessageHandler(audio -> {
            session.heard(audio.getBytes(), frameBytes);
            List<String> words = session.words(session.settled);
            if (!words.isEmpty()) {
                session.ws.writeTextMessage(transcript(String.join(" ", words), false));
            }
        });
        session.ws.textMessageHandler(text -> {
            session.received.add(text);
            if ("finalize".equals(text)) {
                List<String> words = session.settle();
                if (!words.isEmpty()) { // the deltas, verbatim: "where" then " is my"
                    session.ws.writeTextMessage(transcript(words.getFirst(), true));
                    if (words.size() > 1) {
                        session.ws.writeTextMessage(transcript(" " + String.join(" ", words.subList(1,
                                words.size())), true));
                    }
                }
                session.ws.writeTextMessage(new JsonObject().put("type", "flush_done").put("request_id", "r")
                        .encode());
            } else if ("done".equals(text)) {
                session.ws.writeTextMessage(new JsonObject().put("type", "done").put("request_id", "r").encode());
                session.ws.close();
            }
        });
    }

    private static String transcript(String text, boolean fin) {
        return new JsonObject().put("type", "transcript").put("is_final", fin).put("request_id", "r")
                .put("text", text).put("duration", 0.5).put("language", "en").encode();
    }

    private static ModelEndpoint cartesia(String key, String model) {
        return new ModelEndpoint(ModelService.STT, "cartesia", model, null, List.of(key),
                Map.of("provider", "cartesia", "model", model, "language", "en"), false);
    }

    private static CartesiaListen listen(Heard heard, Duration timeout) {
        String url = server.ws() + CartesiaListen.query("ink-whisper", "en", AudioFormat.MULAW_8K, List.of());
        return new CartesiaListen(() -> http.webSocket(url, Map.of("X-API-Key", KEY), timeout, true), vertx,
                new RetryBudget(3, Duration.ofMillis(200), Duration.ofSeconds(2)), AudioFormat.MULAW_8K, heard);
    }

    @Test
    void theSessionIsAskedInTheCallsEncodingAndATurnIsInterimsThenOneFinalAtFlushDone() throws Exception {
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(cartesia(KEY, "ink-whisper").withKeyterms(List.of("Acme Pay")),
                AudioFormat.MULAW_8K, heard);
        await(() -> server.sessions.size() == 1, "the session");
        Session session = server.sessions.getFirst();
        assertThat(session.path).isEqualTo("/stt/websocket");
        assertThat(session.headers.get("X-API-Key")).isEqualTo(KEY);
        assertThat(session.headers.get("Cartesia-Version")).isEqualTo("2025-04-16");
        assertThat(session.params.get("model")).isEqualTo("ink-whisper");
        assertThat(session.params.get("language")).isEqualTo("en");
        assertThat(session.params.get("encoding")).as("the phone's μ-law as it is").isEqualTo("pcm_mulaw");
        assertThat(session.params.get("sample_rate")).isEqualTo("8000");
        assertThat(session.params.contains("keyterm")).as("ink-whisper takes no keyterms").isFalse();

        say(stream, 1, 10);
        say(stream, 2, 7); // 340 ms: three messages of 100 ms, 40 ms not yet one
        await(() -> heard.events.contains("interim:where is"), "the interims");
        assertThat(session.messages).containsExactly(800, 800, 800);
        stream.finalizeNow();
        await(() -> heard.finals().size() == 1, "the turn's final");
        assertThat(heard.finals()).as("Cartesia's two deltas, one final at flush_done").containsExactly(
                "final:where is");
        assertThat(session.messages).as("the 40 ms left go before the finalize").containsExactly(800, 800, 800, 320);
        assertThat(heard.events).startsWith("interim:where").doesNotContain("final:where");

        say(stream, SILENCE, 5);
        stream.finalizeNow(); // nothing said since: flush_done alone
        await(() -> heard.finals().size() == 2, "the empty final");
        assertThat(heard.finals()).containsExactly("final:where is", "final:");

        stream.close();
        await(() -> session.received.getLast().equals("done"), "done at the end");
        await(session.ws::isClosed, "Cartesia ends the session");
        assertThat(session.received).as("audio, the finalizes and done: no keep-alive").containsExactly("audio",
                "audio", "audio", "audio", "finalize", "audio", "finalize", "done");
        assertThat(stream.seconds()).as("the caller's audio, counted once").isEqualTo(0.44);
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));

        Heard browser = new Heard();
        SpeechToText.Stream pcm = speech.open(cartesia(KEY, "ink-2").withKeyterms(List.of("Acme Pay", "Zyrtec")),
                AudioFormat.PCM_16K, browser);
        await(() -> server.sessions.size() == 2, "the browser's session");
        Session second = server.sessions.get(1);
        assertThat(second.params.get("encoding")).isEqualTo("pcm_s16le");
        assertThat(second.params.get("sample_rate")).isEqualTo("16000");
        assertThat(second.params.getAll("keyterm")).containsExactly("Acme Pay", "Zyrtec");
        sayPcm(pcm, 4, 5);
        pcm.finalizeNow();
        await(() -> browser.finals().size() == 1, "the browser's turn");
        assertThat(browser.finals()).containsExactly("final:order");
        assertThat(second.messages).containsExactly(3_200);
        pcm.close();
    }

    @Test
    void keytermsGoAsSpacesEncodedWithinCartesiasLimits() {
        assertThat(CartesiaListen.query("ink-2", "en", AudioFormat.MULAW_8K, List.of("Acme Pay", " ", "Zyrtec")))
                .endsWith("&keyterm=Acme%20Pay&keyterm=Zyrtec");
        List<String> many = IntStream.range(0, 150).mapToObj(i -> "term" + i).toList();
        assertThat(CartesiaListen.keyterms(many)).hasSize(CartesiaListen.MAX_KEYTERMS);
        List<String> long20 = IntStream.range(0, 100).mapToObj(i -> String.valueOf((char) ('a' + i % 26)).repeat(20)
                + i).toList();
        assertThat(CartesiaListen.keyterms(long20).stream().mapToInt(String::length).sum())
                .isLessThanOrEqualTo(CartesiaListen.MAX_KEYTERM_CHARS);
    }

    @Test
    void aFinalCartesiaGivesOfItselfIsPassedOnAsItComes() throws Exception {
        Heard heard = new Heard();
        CartesiaListen stream = listen(heard, Duration.ofMillis(800));
        await(() -> server.sessions.size() == 1, "the session");
        Session session = server.sessions.getFirst();
        say(stream, 0, 10);
        await(() -> session.frames.size() == 10, "the words heard");
        session.ws.writeTextMessage(transcript(" " + String.join(" ", session.settle()), true));
        await(() -> heard.finals().size() == 1, "Cartesia's own final");
        assertThat(heard.finals()).containsExactly("final:hello");
        stream.close();
    }

    @Test
    void aSocketClosedMidLineIsOpenedAgainAndTheLineIsHeardOnceWithTheGapsAudio() throws Exception {
        Heard heard = new Heard();
        CartesiaListen stream = listen(heard, Duration.ofMillis(800));
        await(() -> server.sessions.size() == 1, "the first session");
        say(stream, 0, 10); // "hello", settled before the drop
        stream.finalizeNow();
        await(() -> heard.finals().contains("final:hello"), "the first line");

        say(stream, 1, 10); // "where" reaches the first session, then Cartesia drops it mid-line
        await(() -> heard.events.contains("interim:where"), "the line's start at the first session");
        server.handshakes.add(Handshake.accept(300)); // the new session takes a while: the gap
        server.sessions.getFirst().ws.close((short) 1011, "internal error");
        await(() -> server.upgradesAt.size() == 2, "opened again at once");
        say(stream, 2, 10); // "is": said during the gap
        await(() -> server.sessions.size() == 2, "the second session");
        say(stream, 3, 10); // "my": on the new session
        stream.finalizeNow();
        await(() -> heard.finals().size() == 2, "the line across the drop");

        assertThat(heard.finals()).containsExactly("final:hello", "final:where is my");
        Session second = server.sessions.get(1);
        assertThat(second.frames).as("the unsettled line first, then the gap's audio, then the rest; no settled audio")
                .startsWith(1, 1, 1).doesNotContain(0).hasSize(30).endsWith(3);
        assertThat(second.frames.indexOf(2)).isEqualTo(10);
        assertThat(stream.seconds()).as("the caller's audio counted once").isEqualTo(0.8);

        server.handshakes.add(Handshake.accept(0));
        second.ws.writeTextMessage(new JsonObject().put("type", "error").put("message", "Internal server error")
                .put("status_code", 500).encode()); // a 5xx: a socket of its own again
        await(() -> server.sessions.size() == 3, "opened again after the error");
        say(stream, 4, 5);
        stream.finalizeNow();
        await(() -> heard.finals().size() == 3, "heard on the third session");
        assertThat(heard.finals().getLast()).isEqualTo("final:order");
        stream.close();
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
    }

    @Test
    void aFinalizeWhoseAnswerWasLostInTheDropIsSentAgainAfterTheLinesAudio() throws Exception {
        Heard heard = new Heard();
        CartesiaListen stream = listen(heard, Duration.ofMillis(800));
        await(() -> server.sessions.size() == 1, "the first session");
        Session first = server.sessions.getFirst();
        say(stream, 4, 10);
        await(() -> first.frames.size() == 10, "the line at the first session");
        first.ws.textMessageHandler(first.received::add); // deaf from now on
        stream.finalizeNow();
        await(() -> first.received.contains("finalize"), "the finalize reached the session");
        first.ws.close((short) 1006, "gone");
        await(() -> heard.finals().size() == 1, "the line on the new session");
        assertThat(heard.finals()).containsExactly("final:order");
        assertThat(server.sessions.get(1).frames).hasSize(10).containsOnly(4);
        assertThat(server.sessions.get(1).received).endsWith("audio", "finalize");
        stream.close();
    }

    @Test
    void aRefusedKeyOrModelFailsTheStreamOnceWithCartesiasWordsAndIsNotTriedAgain() throws Exception {
        Heard refused = new Heard();
        SpeechToText.Stream stream = speech.open(cartesia("wrong", "ink-whisper"), AudioFormat.MULAW_8K, refused);
        say(stream, 1, 5);
        await(() -> !refused.events.isEmpty(), "the refusal");
        Thread.sleep(500);
        assertThat(refused.events).singleElement().asString().startsWith("failed:Cartesia").contains("401");
        assertThat(server.upgradesAt).as("a refused key is not worth another try").hasSize(1);

        server.clear();
        Heard model = new Heard();
        speech.open(cartesia(KEY, "no-such-model"), AudioFormat.MULAW_8K, model);
        await(() -> !model.events.isEmpty(), "the error message");
        Thread.sleep(500);
        assertThat(model.events).containsExactly(
                "failed:Cartesia: The model is not valid, make sure it is a valid model ID. (400)");
        assertThat(server.upgradesAt).hasSize(1);
    }

    @Test
    void aConnectionThatTimesOutIsTriedAgainAndTheAudioSaidMeanwhileIsHeard() throws Exception {
        server.handshakes.add(Handshake.hang());
        Heard heard = new Heard();
        CartesiaListen stream = listen(heard, Duration.ofMillis(400));
        say(stream, 1, 10);
        await(() -> server.sessions.size() == 1, "connected on the second try");
        stream.finalizeNow();
        await(() -> heard.finals().size() == 1, "the line");
        assertThat(heard.finals()).containsExactly("final:where");
        assertThat(server.secondTryAfterMs()).as("the time limit, then a backoff").isGreaterThanOrEqualTo(450);
        stream.close();

        server.clear();
        for (int i = 0; i < 5; i++) {
            server.handshakes.add(Handshake.hang());
        }
        Heard failed = new Heard();
        listen(failed, Duration.ofMillis(400)).audio(new byte[160]);
        await(() -> !failed.events.isEmpty(), "the failure");
        Thread.sleep(300);
        assertThat(failed.events).singleElement().asString().startsWith("failed:Cartesia: Could not reach 127.0.0.1");
        assertThat(server.upgradesAt).as("three tries").hasSize(3);
    }

    @Test
    void theKeyIsCheckedWithTheVoiceList() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(cartesia(KEY, "ink-whisper")).await().atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(server.requests).singleElement().satisfies(r -> {
            assertThat(r.path()).isEqualTo("/voices");
            assertThat(r.getHeader("Cartesia-Version")).isEqualTo("2025-04-16");
        });
        assertThat(checks.problem(cartesia("wrong", "ink-whisper")).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Invalid Cartesia API key")
                        .contains("401"));
        assertThat(server.upgradesAt).isEmpty();
    }
}
