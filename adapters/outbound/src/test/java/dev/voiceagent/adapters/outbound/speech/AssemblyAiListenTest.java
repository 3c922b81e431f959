package dev.voiceagent.adapters.outbound.speech;

import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.SILENCE;
import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.WORDS;
import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.await;
import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.say;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.adapters.outbound.ProviderChecks;
import dev.voiceagent.adapters.outbound.speech.SpeechTestKit.Heard;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * AssemblyAI's streaming v3 as a call listens with it, against a local server that answers as AssemblyAI does and is
 * an oracle of the audio (each 20 ms frame's first byte names the word it carries, {@link #SILENCE} none): the
 * session asked for (the key as it is in Authorization, the model, the call's encoding and rate, formatted finals
 * for the Universal-Streaming models only, the dictionary as keyterms_prompt), the audio in messages within
 * AssemblyAI's 50-1000 ms (it closes the session with 3007 otherwise), a partial Turn for each message that carries
 * words, ForceEndpoint ending the turn (the unformatted end of turn, then its formatted copy when format_turns was
 * asked for; Universal-3 Pro's formatted end of turn alone), Terminate answered with Termination and a close. And the
 * faults: a session closed mid-turn (opened again, the turn's audio sent again, heard once), audio between turns not
 * kept beyond a few seconds, a 3007 close (opened again without the backlog), a refused key with and without the
 * Error frame (no second try), connections that time out; and the key check, a temporary token.
 */
class AssemblyAiListenTest {

    private static final String KEY = "aa-key";

    /** What the server does with the next upgrade: accept it (after a while), or never answer it. */
    record Handshake(boolean unanswered, long delayMs) {

        static Handshake accept(long delayMs) {
            return new Handshake(false, delayMs);
        }

        static Handshake hang() {
            return new Handshake(true, 0);
        }
    }

    /** One session as the server saw it. */
    static final class Session {
        final ServerWebSocket ws;
        final String path;
        final String authorization;
        final MultiMap params;
        final int frameBytes;
        final boolean formatTurns;
        /** The word of each 20 ms frame received, in order. */
        final List<Integer> frames = new CopyOnWriteArrayList<>();
        /** The size of each binary message, in order. */
        final List<Integer> messages = new CopyOnWriteArrayList<>();
        /** "audio" for each binary message, the type of each text message, in order. */
        final List<String> received = new CopyOnWriteArrayList<>();
        volatile long formatDelayMs = 30;
        int turnFrom;
        int turn;

        Session(ServerWebSocket ws, String path, String authorization, MultiMap params) {
            this.ws = ws;
            this.path = path;
            this.authorization = authorization;
            this.params = params;
            boolean mulaw = "pcm_mulaw".equals(params.get("encoding"));
            this.frameBytes = Integer.parseInt(params.get("sample_rate")) / 1_000 * 20 * (mulaw ? 1 : 2);
            this.formatTurns = "true".equals(params.get("format_turns"));
        }
    }

    private static final Deque<Handshake> HANDSHAKES = new ConcurrentLinkedDeque<>();
    private static final List<Session> SESSIONS = new CopyOnWriteArrayList<>();
    private static final List<Long> UPGRADES_AT = new CopyOnWriteArrayList<>();
    private static final List<HttpServerRequest> TOKEN_REQUESTS = new CopyOnWriteArrayList<>();
    private static Vertx vertx;
    private static HttpServer server;
    private static GuardedHttp http;
    private static ProviderApis apis;
    private static String base;
    private static SpeechProviders speech;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(AssemblyAiListenTest::request);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + server.actualPort();
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(800));
        apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v").pointing("assemblyai", base);
        speech = new SpeechProviders(http, apis, vertx, Duration.ofMillis(800), 3, Duration.ofMillis(200),
                Duration.ofSeconds(2));
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        HANDSHAKES.clear();
        SESSIONS.clear();
        UPGRADES_AT.clear();
        TOKEN_REQUESTS.clear();
    }

    private static void request(HttpServerRequest request) {
        if (request.path().equals("/v3/token")) {
            TOKEN_REQUESTS.add(request);
            boolean known = KEY.equals(request.getHeader("Authorization"));
            request.response().setStatusCode(known ? 200 : 401).putHeader("Content-Type", "application/json")
                    .end(known ? "{\"token\":\"temporary\",\"expires_in_seconds\":60}"
                            : "{\"error\":\"Invalid API key\"}");
            return;
        }
        UPGRADES_AT.add(System.nanoTime());
        Handshake next = HANDSHAKES.isEmpty() ? Handshake.accept(0) : HANDSHAKES.pollFirst();
        request.pause();
        if (next.unanswered()) {
            return; // never answered: the client's time limit runs out
        }
        String path = request.path();
        String authorization = request.getHeader("Authorization");
        MultiMap params = MultiMap.caseInsensitiveMultiMap().addAll(request.params());
        vertx.setTimer(Math.max(1, next.delayMs()), t -> request.toWebSocket()
                .onSuccess(ws -> serve(new Session(ws, path, authorization, params))));
    }

    /** AssemblyAI: the key checked once the socket is open (an Error frame and a close), then the session. */
    private static void serve(Session session) {
        SESSIONS.add(session);
        if ("aa-wrong".equals(session.authorization)) {
            session.ws.writeTextMessage(new JsonObject().put("type", "Error").put("error_code", 1008)
                    .put("error", "Unauthorized Connection: Invalid API key").encode());
            session.ws.close((short) 1008, "See Error message for details");
            return;
        }
        if ("aa-bare".equals(session.authorization)) { // the Error frame did not reach us: the close alone
            session.ws.close((short) 1008, "Unauthorized Connection: Account balance is negative");
            return;
        }
        session.ws.writeTextMessage(new JsonObject().put("type", "Begin").put("id", "s-" + SESSIONS.size())
                .put("expires_at", System.currentTimeMillis() / 1_000 + 10_800).encode());
        session.ws.binaryMessageHandler(message -> {
            session.received.add("audio");
            session.messages.add(message.length());
            int ms = message.length() / (session.frameBytes / 20);
            if (ms < 50 || ms > 1_000) {
                session.ws.writeTextMessage(new JsonObject().put("type", "Error").put("error_code", 3007)
                        .put("error", "Input duration violation: " + ms + " ms. Expected between 50 and 1000 ms")
                        .encode());
                session.ws.close((short) 3007, "See Error message for details");
                return;
            }
            for (int at = 0; at + session.frameBytes <= message.length(); at += session.frameBytes) {
                session.frames.add((int) message.getByte(at));
            }
            JsonArray words = words(session, false);
            if (!words.isEmpty()) { // a partial: words not final yet, none in the transcript yet
                session.ws.writeTextMessage(turn(session.turn, false, false, "", words));
            }
        });
        session.ws.textMessageHandler(text -> {
            String type = new JsonObject(text).getString("type");
            session.received.add(type);
            if ("ForceEndpoint".equals(type)) {
                endTurn(session);
            } else if ("Terminate".equals(type)) {
                session.ws.writeTextMessage(new JsonObject().put("type", "Termination")
                        .put("audio_duration_seconds", session.frames.size() / 50)
                        .put("session_duration_seconds", 1).encode());
                session.ws.close((short) 1000, "");
            }
        });
    }

    /** The current turn's words: consecutive frames of a word are one, its start and end on the session's audio. */
    private static JsonArray words(Session session, boolean fin) {
        JsonArray words = new JsonArray();
        int previous = -1;
        for (int i = session.turnFrom; i < session.frames.size(); i++) {
            int word = session.frames.get(i);
            if (word != SILENCE && word == previous) {
                words.getJsonObject(words.size() - 1).put("end", (i + 1) * 20);
            } else if (word != SILENCE) {
                words.add(new JsonObject().put("text", WORDS[word]).put("start", i * 20).put("end", (i + 1) * 20)
                        .put("confidence", 0.9).put("word_is_final", fin));
            }
            previous = word;
        }
        return words;
    }

    private static String turn(int order, boolean end, boolean formatted, String transcript, JsonArray words) {
        return new JsonObject().put("type", "Turn").put("turn_order", order).put("turn_is_formatted", formatted)
                .put("end_of_turn", end).put("transcript", transcript).put("end_of_turn_confidence", end ? 0.9 : 0.1)
                .put("words", words).put("utterance", end ? transcript : "").encode();
    }

    /**
     * ForceEndpoint: the turn's end (nothing when no word was said). With format_turns, the unformatted end of turn
     * and its formatted copy after {@link Session#formatDelayMs} (never when negative); without it (Universal-3 Pro),
     * the formatted end of turn alone.
     */
    private static void endTurn(Session session) {
        JsonArray words = words(session, true);
        session.turnFrom = session.frames.size();
        if (words.isEmpty()) {
            return;
        }
        List<String> said = new ArrayList<>();
        words.forEach(w -> said.add(((JsonObject) w).getString("text")));
        String plain = String.join(" ", said);
        String formatted = plain.substring(0, 1).toUpperCase(Locale.ROOT) + plain.substring(1) + ".";
        int order = session.turn++;
        if (!session.formatTurns) {
            session.ws.writeTextMessage(turn(order, true, true, formatted, words));
            return;
        }
        session.ws.writeTextMessage(turn(order, true, false, plain, words));
        if (session.formatDelayMs >= 0) {
            vertx.setTimer(Math.max(1, session.formatDelayMs), t -> {
                if (!session.ws.isClosed()) {
                    session.ws.writeTextMessage(turn(order, true, true, formatted, words));
                }
            });
        }
    }

    private static AssemblyAiListen listen(Heard heard, String model, long formatWaitMs, String key,
            Duration timeout) {
        String url = base.replace("http://", "ws://") + AssemblyAiListen.query(model, AudioFormat.MULAW_8K,
                List.of());
        return new AssemblyAiListen(() -> http.webSocket(url, Map.of("Authorization", key), timeout, true), vertx,
                new RetryBudget(3, Duration.ofMillis(200), Duration.ofSeconds(2)), AudioFormat.MULAW_8K, heard, model,
                formatWaitMs);
    }

    private static AssemblyAiListen listen(Heard heard, String model, long formatWaitMs) {
        return listen(heard, model, formatWaitMs, KEY, Duration.ofMillis(800));
    }

    private static ModelEndpoint assemblyai(String key, String model) {
        return new ModelEndpoint(ModelService.STT, "assemblyai", model, null, List.of(key),
                Map.of("provider", "assemblyai", "model", model, "language", "en"), false);
    }

    @Test
    void theSessionIsAskedForInTheCallsEncodingAndTheAudioGoesInMessagesOfAtLeast50Ms() throws Exception {
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(assemblyai(KEY, "universal-streaming-english")
                .withKeyterms(List.of("Acme Pay", "Zyrtec")), AudioFormat.MULAW_8K, heard);
        await(() -> SESSIONS.size() == 1, "the session");
        Session session = SESSIONS.getFirst();
        assertThat(session.path).isEqualTo("/v3/ws");
        assertThat(session.authorization).as("the key as it is, no scheme").isEqualTo(KEY);
        assertThat(session.params.get("speech_model")).isEqualTo("universal-streaming-english");
        assertThat(session.params.get("sample_rate")).isEqualTo("8000");
        assertThat(session.params.get("encoding")).as("the phone's μ-law as it is").isEqualTo("pcm_mulaw");
        assertThat(session.params.get("format_turns")).isEqualTo("true");
        assertThat(new JsonArray(session.params.get("keyterms_prompt"))).containsExactly("Acme Pay", "Zyrtec");

        say(stream, 1, 23); // 460 ms: four messages of 100 ms, and 60 ms not yet one
        await(() -> session.messages.size() == 4, "four messages");
        stream.finalizeNow();
        await(() -> heard.finals().size() == 1, "the turn's final");
        assertThat(session.messages).as("the 60 ms left go before the ForceEndpoint")
                .containsExactly(800, 800, 800, 800, 480);
        assertThat(session.received).containsExactly("audio", "audio", "audio", "audio", "audio", "ForceEndpoint");
        assertThat(heard.finals()).containsExactly("final:Where.");

        say(stream, SILENCE, 2); // 40 ms: less than AssemblyAI takes in a message, it waits for more
        stream.finalizeNow();
        await(() -> session.received.size() == 7, "the second ForceEndpoint");
        assertThat(session.received.getLast()).isEqualTo("ForceEndpoint");
        assertThat(session.messages).hasSize(5);
        say(stream, SILENCE, 3);
        await(() -> session.messages.size() == 6, "the 40 ms and the next 60 ms as one message");
        assertThat(session.messages.getLast()).isEqualTo(800);

        stream.close();
        await(() -> "Terminate".equals(session.received.getLast()), "Terminate at the end");
        await(session.ws::isClosed, "AssemblyAI ends the session");
        assertThat(stream.seconds()).as("the caller's audio, counted once").isEqualTo(0.56);
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));

        Heard browser = new Heard();
        speech.open(assemblyai(KEY, "u3-rt-pro"), AudioFormat.PCM_16K, browser).close();
        await(() -> SESSIONS.size() == 2, "the browser's session");
        MultiMap asked = SESSIONS.get(1).params;
        assertThat(asked.get("speech_model")).isEqualTo("u3-rt-pro");
        assertThat(asked.get("sample_rate")).isEqualTo("16000");
        assertThat(asked.get("encoding")).isEqualTo("pcm_s16le");
        assertThat(asked.contains("format_turns")).as("Universal-3 Pro always formats").isFalse();
        assertThat(asked.contains("keyterms_prompt")).as("no dictionary, no keyterms").isFalse();
    }

    @Test
    void partialsAreInterimAndEachTurnHasOneFinalTheFormattedOne() throws Exception {
        Heard heard = new Heard();
        AssemblyAiListen stream = listen(heard, "universal-streaming-english", 2_000);
        await(() -> SESSIONS.size() == 1, "the session");
        say(stream, 1, 10);
        say(stream, 2, 5);
        await(() -> heard.events.contains("interim:where is"), "the partials");
        stream.finalizeNow();
        await(() -> heard.finals().size() == 1, "the first turn's final");
        say(stream, 3, 10);
        stream.finalizeNow();
        await(() -> heard.finals().size() == 2, "the second turn's final");
        Thread.sleep(300);

        assertThat(heard.finals()).as("the formatted copy, once a turn").containsExactly("final:Where is.",
                "final:My.");
        assertThat(heard.events).as("partials first, the unformatted end of turn only as an interim")
                .startsWith("interim:where").contains("interim:where is", "interim:my")
                .doesNotContain("final:where is", "final:my");
        assertThat(heard.events.indexOf("final:Where is.")).isGreaterThan(heard.events.lastIndexOf(
                "interim:where is"));
        stream.close();
    }

    @Test
    void anUnformattedEndOfTurnIsTheFinalWhenItsFormattedCopyIsLateAndTheCopyIsDropped() throws Exception {
        Heard heard = new Heard();
        AssemblyAiListen stream = listen(heard, "universal-streaming-english", 150);
        await(() -> SESSIONS.size() == 1, "the session");
        SESSIONS.getFirst().formatDelayMs = 700;
        say(stream, 1, 10);
        long asked = System.nanoTime();
        stream.finalizeNow();
        await(() -> heard.finals().size() == 1, "the final");
        long waited = (System.nanoTime() - asked) / 1_000_000;
        Thread.sleep(900); // the formatted copy has come meanwhile

        assertThat(heard.finals()).containsExactly("final:where");
        assertThat(waited).as("not the formatted copy's 700 ms").isBetween(140L, 600L);
        stream.close();
    }

    @Test
    void universalThreeProsEndOfTurnIsTheFinalAsItComes() throws Exception {
        Heard heard = new Heard();
        AssemblyAiListen stream = listen(heard, "u3-rt-pro", 5_000);
        await(() -> SESSIONS.size() == 1, "the session");
        assertThat(SESSIONS.getFirst().formatTurns).isFalse();
        say(stream, 4, 10);
        stream.finalizeNow();
        await(() -> heard.finals().size() == 1, "the final, without waiting for a copy");
        assertThat(heard.finals()).containsExactly("final:Order.");
        stream.close();
    }

    @Test
    void aSessionClosedMidTurnIsOpenedAgainAndTheTurnIsHeardOnceWithTheGapsAudio() throws Exception {
        Heard heard = new Heard();
        AssemblyAiListen stream = listen(heard, "universal-streaming-english", 2_000);
        await(() -> SESSIONS.size() == 1, "the first session");
        say(stream, 0, 10); // "hello", settled before the drop
        stream.finalizeNow();
        await(() -> heard.finals().contains("final:Hello."), "the first turn");

        say(stream, 1, 10); // "where" reaches the first session, then AssemblyAI cancels it mid-turn
        await(() -> heard.events.contains("interim:where"), "the turn's start heard by the first session");
        HANDSHAKES.add(Handshake.accept(300)); // the new session takes a while: the gap
        SESSIONS.getFirst().ws.close((short) 3005, "Session Cancelled: An error occurred");
        await(() -> UPGRADES_AT.size() == 2, "opened again at once");
        say(stream, 2, 10); // "is": said during the gap
        await(() -> SESSIONS.size() == 2, "the second session");
        say(stream, 3, 10); // "my": on the new session
        stream.finalizeNow();
        await(() -> heard.finals().size() == 2, "the turn across the drop");

        assertThat(heard.finals()).containsExactly("final:Hello.", "final:Where is my.");
        Session second = SESSIONS.get(1);
        assertThat(second.frames).as("the unsettled turn first, then the gap's audio, then the rest; no settled audio")
                .startsWith(1, 1, 1).doesNotContain(0).hasSize(30).endsWith(3);
        assertThat(second.frames.indexOf(2)).isEqualTo(10);
        assertThat(second.messages).allSatisfy(size -> assertThat(size).isBetween(400, 8_000));
        assertThat(stream.seconds()).as("the caller's audio counted once").isEqualTo(0.8);
        stream.close();
        await(() -> second.received.contains("Terminate"), "Terminate on the open session");
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
    }

    @Test
    void betweenTurnsOnlyTheLastSecondsAreSentAgainNotABurstOfSilence() throws Exception {
        Heard heard = new Heard();
        AssemblyAiListen stream = listen(heard, "universal-streaming-english", 2_000);
        await(() -> SESSIONS.size() == 1, "the first session");
        say(stream, 0, 10);
        stream.finalizeNow();
        await(() -> heard.finals().contains("final:Hello."), "the turn");
        say(stream, SILENCE, 250); // five seconds without a word while the agent speaks
        await(() -> SESSIONS.getFirst().frames.size() == 260, "the silence heard");
        SESSIONS.getFirst().ws.close((short) 1011, "internal error");
        await(() -> SESSIONS.size() == 2, "the second session");
        Thread.sleep(200);
        assertThat(SESSIONS.get(1).frames).as("the last " + AssemblyAiListen.IDLE_MS + " ms, not five seconds")
                .hasSize(AssemblyAiListen.IDLE_MS / 20).containsOnly(SILENCE);
        stream.close();
    }

    @Test
    void aSessionClosedForAudioTooFastIsOpenedAgainWithoutTheBacklog() throws Exception {
        Heard heard = new Heard();
        AssemblyAiListen stream = listen(heard, "universal-streaming-english", 2_000);
        await(() -> SESSIONS.size() == 1, "the first session");
        say(stream, 1, 10);
        await(() -> heard.events.contains("interim:where"), "the turn's start");
        Session first = SESSIONS.getFirst();
        first.ws.writeTextMessage(new JsonObject().put("type", "Error").put("error_code", 3007)
                .put("error", "Audio Transmission Rate Exceeded: Received 4.2 sec. audio in 1.0 sec").encode());
        first.ws.close((short) 3007, "See Error message for details");
        await(() -> SESSIONS.size() == 2, "the second session");
        say(stream, 2, 10);
        stream.finalizeNow();
        await(() -> heard.finals().size() == 1, "the turn on the new session");
        assertThat(heard.finals()).containsExactly("final:Is.");
        assertThat(SESSIONS.get(1).frames).hasSize(10).containsOnly(2);
        stream.close();
    }

    @Test
    void aRefusedKeyFailsTheStreamOnceWithAssemblyAisWordsAndIsNotTriedAgain() throws Exception {
        Heard refused = new Heard();
        SpeechToText.Stream stream = speech.open(assemblyai("aa-wrong", "u3-rt-pro"), AudioFormat.MULAW_8K, refused);
        say(stream, 1, 10);
        await(() -> !refused.events.isEmpty(), "the refusal");
        Thread.sleep(600);
        assertThat(refused.events).containsExactly(
                "failed:AssemblyAI: Unauthorized Connection: Invalid API key (1008)");
        assertThat(UPGRADES_AT).as("a refused key is not worth another try").hasSize(1);

        clear();
        Heard closed = new Heard();
        speech.open(assemblyai("aa-bare", "u3-rt-pro"), AudioFormat.MULAW_8K, closed);
        await(() -> !closed.events.isEmpty(), "the refusal without its Error frame");
        Thread.sleep(600);
        assertThat(closed.events).singleElement().asString().startsWith("failed:AssemblyAI")
                .contains("1008", "Account balance is negative");
        assertThat(UPGRADES_AT).hasSize(1);
    }

    @Test
    void aConnectionThatTimesOutIsTriedAgainAndTheAudioSaidMeanwhileIsHeard() throws Exception {
        HANDSHAKES.add(Handshake.hang());
        Heard heard = new Heard();
        AssemblyAiListen stream = listen(heard, "u3-rt-pro", 2_000, KEY, Duration.ofMillis(400));
        say(stream, 1, 10);
        await(() -> SESSIONS.size() == 1, "connected on the second try");
        stream.finalizeNow();
        await(() -> heard.finals().size() == 1, "the turn");
        assertThat(heard.finals()).containsExactly("final:Where.");
        assertThat(UPGRADES_AT).hasSize(2);
        assertThat((UPGRADES_AT.get(1) - UPGRADES_AT.get(0)) / 1_000_000).as("the time limit, then a backoff")
                .isGreaterThanOrEqualTo(450);
        assertThat(SESSIONS.getFirst().frames).hasSize(10);
        stream.close();

        clear();
        for (int i = 0; i < 5; i++) {
            HANDSHAKES.add(Handshake.hang());
        }
        Heard failed = new Heard();
        long from = System.nanoTime();
        listen(failed, "u3-rt-pro", 2_000, KEY, Duration.ofMillis(400)).audio(new byte[160]);
        await(() -> !failed.events.isEmpty(), "the failure");
        long after = (System.nanoTime() - from) / 1_000_000;
        Thread.sleep(600);
        // (Vert.x ends a handshake past its time limit by closing the connection, and says so)
        assertThat(failed.events).singleElement().asString().startsWith("failed:AssemblyAI: Could not reach 127.0.0.1");
        assertThat(UPGRADES_AT).as("three tries").hasSize(3);
        assertThat(after).as("each try waited out its time limit").isGreaterThanOrEqualTo(3 * 400);
    }

    @Test
    void theKeyIsCheckedWithATemporaryTokenNoSessionOpened() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(assemblyai(KEY, "u3-rt-pro")).await().atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(TOKEN_REQUESTS).singleElement().satisfies(r -> {
            assertThat(r.method().name()).isEqualTo("GET");
            assertThat(r.query()).isEqualTo("expires_in_seconds=60");
            assertThat(r.getHeader("Authorization")).isEqualTo(KEY);
        });
        assertThat(checks.problem(assemblyai("aa-wrong", "u3-rt-pro")).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Invalid AssemblyAI API key")
                        .contains("401", "Invalid API key"));
        assertThat(UPGRADES_AT).isEmpty();
    }
}
