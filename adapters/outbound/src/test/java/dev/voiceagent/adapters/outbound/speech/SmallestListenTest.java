package dev.voiceagent.adapters.outbound.speech;

import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.SILENCE;
import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.WORDS;
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
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Smallest AI's Pulse as a call listens with it, against a local server that answers as its live WebSocket does, an
 * oracle of the audio ({@link FakeListenServer}): the session asked for (the key as a Bearer token, the model,
 * language, the call's encoding and rate, word timestamps, the dictionary as keywords), the audio in 100 ms binary
 * messages, an interim for each message that carries words, a final of its own (with word times from the socket's
 * first audio) when a message is silent after words (its end-of-utterance), {@code finalize} answered by a final with
 * {@code from_finalize}, {@code close_stream} by the last one with {@code is_last} and a close, and nothing else sent
 * (no keep-alive). And the faults: an upgrade refused with 401, an error message, a close for the concurrency limit
 * (no second try), connections that time out, a socket closed mid-utterance (opened again, the audio a final settled
 * not sent again); and the key check, the organization's voice clones.
 */
class SmallestListenTest {

    private static final String KEY = "sm-key";
    private static Vertx vertx;
    private static FakeListenServer server;
    private static GuardedHttp http;
    private static ProviderApis apis;
    private static SpeechProviders speech;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = new FakeListenServer(vertx, r -> ("Bearer " + KEY).equals(r.getHeader("Authorization")) ? null : 401,
                SmallestListenTest::clones, SmallestListenTest::serve);
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(800));
        apis = new ProviderApis(server.base + "/v1", server.base, "v", server.base, server.base, server.base, "v")
                .pointing("smallest", server.base);
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

    /** GET /waves/v1/voice-cloning: the key check. */
    private static void clones(HttpServerRequest request) {
        boolean known = ("Bearer " + KEY).equals(request.getHeader("Authorization"));
        request.response().setStatusCode(known ? 200 : 401).putHeader("Content-Type", "application/json")
                .end(known ? "{\"voices\":[]}" : "{\"error\":\"Unauthorized\",\"message\":\"Invalid API key\"}");
    }

    /** Pulse: an error message for the "xx" language, the concurrency limit for "busy"; then the conversation. */
    private static void serve(Session session) {
        if ("xx".equals(session.params.get("language"))) {
            session.ws.writeTextMessage(new JsonObject().put("type", "error").put("status", "error")
                    .put("message", "Unsupported language: xx").encode());
            session.ws.close((short) 1011, "error");
            return;
        }
        if ("busy".equals(session.params.get("language"))) {
            session.ws.close((short) 1008, "concurrency limit reached");
            return;
        }
        int frameBytes = "mulaw".equals(session.params.get("encoding")) ? 160 : 640;
        boolean[] speaking = {false};
        session.ws.binaryMessageHandler(audio -> {
            int before = session.frames.size();
            session.heard(audio.getBytes(), frameBytes);
            boolean words = session.frames.subList(before, session.frames.size()).stream().anyMatch(w -> w != SILENCE);
            if (words) {
                speaking[0] = true;
                session.ws.writeTextMessage(result(session, false, false, false));
            } else if (speaking[0]) { // a silent message after words: Pulse's end of utterance
                speaking[0] = false;
                session.ws.writeTextMessage(result(session, true, false, false));
            }
        });
        session.ws.textMessageHandler(text -> {
            String type = new JsonObject(text).getString("type");
            session.received.add(type);
            if ("finalize".equals(type)) {
                speaking[0] = false;
                session.ws.writeTextMessage(result(session, true, true, false));
            } else if ("close_stream".equals(type)) {
                session.ws.writeTextMessage(result(session, true, false, true));
                session.ws.close();
            }
        });
    }

    /** A transcription message of the words not settled yet, with their times; a final settles them. */
    private static String result(Session session, boolean fin, boolean fromFinalize, boolean last) {
        JsonArray words = new JsonArray();
        int previous = -1;
        for (int i = session.settled; i < session.frames.size(); i++) {
            int word = session.frames.get(i);
            if (word != SILENCE && word == previous) {
                words.getJsonObject(words.size() - 1).put("end", (i + 1) * 0.02);
            } else if (word != SILENCE) {
                words.add(new JsonObject().put("word", WORDS[word]).put("start", i * 0.02).put("end", (i + 1) * 0.02)
                        .put("confidence", 0.9));
            }
            previous = word;
        }
        String transcript = String.join(" ", session.words(session.settled));
        if (fin) {
            session.settle();
        }
        JsonObject json = new JsonObject().put("session_id", "s").put("transcript", transcript).put("is_final", fin)
                .put("is_last", last).put("words", words);
        if (fin) {
            json.put("from_finalize", fromFinalize).put("language", "en");
        }
        return json.encode();
    }

    private static ModelEndpoint smallest(String key, String language) {
        return new ModelEndpoint(ModelService.STT, "smallest", "pulse", null, List.of(key),
                Map.of("provider", "smallest", "model", "pulse", "language", language), false);
    }

    private static SmallestListen listen(Heard heard, Duration timeout) {
        String url = server.ws() + SmallestListen.query("pulse", "en", AudioFormat.MULAW_8K, List.of());
        return new SmallestListen(() -> http.webSocket(url, Map.of("Authorization", "Bearer " + KEY), timeout, true),
                vertx, new RetryBudget(3, Duration.ofMillis(200), Duration.ofSeconds(2)), AudioFormat.MULAW_8K, heard);
    }

    @Test
    void theSessionIsAskedInTheCallsEncodingAndAFinalizeIsAnsweredByItsFinal() throws Exception {
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(smallest(KEY, "en").withKeyterms(List.of("Acme Pay", "Zyrtec",
                "one, two")), AudioFormat.MULAW_8K, heard);
        await(() -> server.sessions.size() == 1, "the session");
        Session session = server.sessions.getFirst();
        assertThat(session.path).isEqualTo("/waves/v1/stt/live");
        assertThat(session.headers.get("Authorization")).isEqualTo("Bearer " + KEY);
        assertThat(session.params.get("model")).isEqualTo("pulse");
        assertThat(session.params.get("language")).isEqualTo("en");
        assertThat(session.params.get("encoding")).as("the phone's μ-law as it is").isEqualTo("mulaw");
        assertThat(session.params.get("sample_rate")).isEqualTo("8000");
        assertThat(session.params.get("word_timestamps")).isEqualTo("true");
        assertThat(session.params.get("keywords")).as("a term with a comma cannot be said in the list")
                .isEqualTo("Acme Pay:4,Zyrtec:4");

        say(stream, 1, 10);
        say(stream, 2, 7);
        await(() -> heard.events.contains("interim:where is"), "the interims");
        assertThat(session.messages).containsExactly(800, 800, 800);
        stream.finalizeNow();
        await(() -> heard.finals().size() == 1, "the final");
        assertThat(heard.finals()).containsExactly("final:where is");
        assertThat(session.messages).as("the 40 ms left go before the finalize").containsExactly(800, 800, 800, 320);
        stream.finalizeNow(); // nothing said since: an empty final from the finalize
        await(() -> heard.finals().size() == 2, "the empty final");
        assertThat(heard.finals()).containsExactly("final:where is", "final:");

        stream.close();
        await(() -> "close_stream".equals(session.received.getLast()), "close_stream at the end");
        await(session.ws::isClosed, "Smallest ends the session");
        assertThat(session.received).as("audio, the finalizes, close_stream: no keep-alive").containsExactly("audio",
                "audio", "audio", "audio", "finalize", "finalize", "close_stream");
        assertThat(stream.seconds()).isEqualTo(0.34);
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));

        Heard browser = new Heard();
        SpeechToText.Stream pcm = speech.open(smallest(KEY, "hi"), AudioFormat.PCM_16K, browser);
        await(() -> server.sessions.size() == 2, "the browser's session");
        Session second = server.sessions.get(1);
        assertThat(second.params.get("encoding")).isEqualTo("linear16");
        assertThat(second.params.get("sample_rate")).isEqualTo("16000");
        assertThat(second.params.get("language")).isEqualTo("hi");
        assertThat(second.params.contains("keywords")).as("no dictionary, no keywords").isFalse();
        sayPcm(pcm, 4, 5);
        pcm.finalizeNow();
        await(() -> browser.finals().size() == 1, "the browser's turn");
        assertThat(browser.finals()).containsExactly("final:order");
        pcm.close();
    }

    @Test
    void aFinalOfItsOwnIsPassedOnAndSettlesItsWordsSoADropSendsOnlyWhatCameAfter() throws Exception {
        Heard heard = new Heard();
        SmallestListen stream = listen(heard, Duration.ofMillis(800));
        await(() -> server.sessions.size() == 1, "the first session");
        say(stream, 0, 10);
        say(stream, SILENCE, 5); // Pulse's end of utterance
        await(() -> heard.finals().size() == 1, "Pulse's own final");
        assertThat(heard.finals()).containsExactly("final:hello");

        say(stream, 3, 10);
        await(() -> server.sessions.getFirst().frames.size() == 25, "the next words at the first session");
        server.handshakes.add(Handshake.accept(300));
        server.sessions.getFirst().ws.close((short) 1011, "internal error");
        await(() -> server.upgradesAt.size() == 2, "opened again at once");
        say(stream, 4, 10); // said during the gap
        await(() -> server.sessions.size() == 2, "the second session");
        stream.finalizeNow();
        await(() -> heard.finals().size() == 2, "the utterance across the drop");
        assertThat(heard.finals()).containsExactly("final:hello", "final:my order");
        assertThat(server.sessions.get(1).frames).as("after the final's last word: the silence, then the rest")
                .doesNotContain(0).startsWith(SILENCE, SILENCE, SILENCE, SILENCE, SILENCE, 3).endsWith(4).hasSize(25);
        assertThat(stream.seconds()).isEqualTo(0.7);
        stream.close();
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
    }

    @Test
    void aRefusedKeyAnErrorMessageOrTheConcurrencyLimitFailsTheStreamOnce() throws Exception {
        Heard refused = new Heard();
        speech.open(smallest("wrong", "en"), AudioFormat.MULAW_8K, refused).audio(new byte[160]);
        await(() -> !refused.events.isEmpty(), "the refusal");
        Thread.sleep(500);
        assertThat(refused.events).singleElement().asString().startsWith("failed:Smallest AI").contains("401");
        assertThat(server.upgradesAt).as("a refused key is not worth another try").hasSize(1);

        server.clear();
        Heard error = new Heard();
        speech.open(smallest(KEY, "xx"), AudioFormat.MULAW_8K, error);
        await(() -> !error.events.isEmpty(), "the error message");
        Thread.sleep(500);
        assertThat(error.events).containsExactly("failed:Smallest AI: Unsupported language: xx");
        assertThat(server.upgradesAt).hasSize(1);

        server.clear();
        Heard busy = new Heard();
        speech.open(smallest(KEY, "busy"), AudioFormat.MULAW_8K, busy);
        await(() -> !busy.events.isEmpty(), "the concurrency limit");
        Thread.sleep(500);
        assertThat(busy.events).singleElement().asString().startsWith("failed:Smallest AI closed the stream")
                .contains("1008", "concurrency limit reached");
        assertThat(server.upgradesAt).hasSize(1);
    }

    @Test
    void aConnectionThatTimesOutIsTriedAgainAndTheAudioSaidMeanwhileIsHeard() throws Exception {
        server.handshakes.add(Handshake.hang());
        Heard heard = new Heard();
        SmallestListen stream = listen(heard, Duration.ofMillis(400));
        say(stream, 1, 10);
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
        listen(failed, Duration.ofMillis(400)).audio(new byte[160]);
        await(() -> !failed.events.isEmpty(), "the failure");
        Thread.sleep(300);
        assertThat(failed.events).singleElement().asString()
                .startsWith("failed:Smallest AI: Could not reach 127.0.0.1");
        assertThat(server.upgradesAt).as("three tries").hasSize(3);
    }

    @Test
    void theKeyIsCheckedWithTheOrganizationsVoiceClones() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(smallest(KEY, "en")).await().atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(server.requests).singleElement().satisfies(r -> {
            assertThat(r.method().name()).isEqualTo("GET");
            assertThat(r.path()).isEqualTo("/waves/v1/voice-cloning");
        });
        assertThat(checks.problem(smallest("wrong", "en")).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Invalid Smallest AI API key")
                        .contains("401", "Invalid API key"));
        assertThat(server.upgradesAt).isEmpty();
    }
}
