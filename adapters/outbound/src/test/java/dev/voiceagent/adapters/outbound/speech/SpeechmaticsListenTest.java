package dev.voiceagent.adapters.outbound.speech;

import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.SILENCE;
import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.WORDS;
import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.await;
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
 * Speechmatics' real-time API as a call listens with it, against a local server that answers as Speechmatics does
 * and is an oracle of the audio (each 20 ms frame's first byte names the word it carries, {@link #SILENCE} none): the
 * Bearer key, the StartRecognition (the call's encoding and rate, language, operating point, partials, delays, the
 * dictionary as additional_vocab), no audio before RecognitionStarted (the server refuses it with a protocol_error,
 * as the spec has it), the audio as the frames come, a partial for each frame that carries a word, a
 * ForceEndOfUtterance (its timestamp the socket's audio time) answered by the forced AddTranscript and EndOfUtterance,
 * EndOfStream with the number of audio messages answered by EndOfTranscript, and no other message (no keep-alive).
 * The faults: a session ended mid-turn with an Error (opened again, the unsettled audio sent again, heard once), a
 * ForceEndOfUtterance lost with its session, a refused key (401), a refused model (Error and close 4004), a bare
 * close 4001, connections that time out; and the key check.
 */
class SpeechmaticsListenTest {

    private static final String KEY = "sm-key";

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
        /** The StartRecognition, once it came. */
        volatile JsonObject start;
        volatile int frameBytes;
        volatile boolean started;
        /** Deaf to ForceEndOfUtterance (its answer lost with the session). */
        volatile boolean deaf;
        /** A ForceEndOfUtterance is answered by a final of the turn's first word, then the forced one of the rest. */
        volatile boolean split;
        /** The word of each 20 ms frame received, in order. */
        final List<Integer> frames = new CopyOnWriteArrayList<>();
        final List<Integer> messages = new CopyOnWriteArrayList<>();
        /** "audio" for each binary message, the type of each text message, in order. */
        final List<String> received = new CopyOnWriteArrayList<>();
        final List<JsonObject> controls = new CopyOnWriteArrayList<>();
        volatile int turnFrom;

        Session(ServerWebSocket ws, String path, String authorization) {
            this.ws = ws;
            this.path = path;
            this.authorization = authorization;
        }
    }

    private static final Deque<Handshake> HANDSHAKES = new ConcurrentLinkedDeque<>();
    private static final List<Session> SESSIONS = new CopyOnWriteArrayList<>();
    private static final List<Long> UPGRADES_AT = new CopyOnWriteArrayList<>();
    private static final List<HttpServerRequest> CHECKS = new CopyOnWriteArrayList<>();
    /** How long the server takes to answer StartRecognition. */
    private static volatile long recognitionDelayMs;
    private static Vertx vertx;
    private static GuardedHttp http;
    private static ProviderApis apis;
    private static String base;
    private static SpeechProviders speech;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        HttpServer server = vertx.createHttpServer().requestHandler(SpeechmaticsListenTest::request);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + server.actualPort();
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(800));
        apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v").pointing("speechmatics", base)
                .pointing("speechmatics_batch", base);
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
        CHECKS.clear();
        recognitionDelayMs = 0;
    }

    private static void request(HttpServerRequest request) {
        boolean known = ("Bearer " + KEY).equals(request.getHeader("Authorization"));
        if (request.path().equals("/v2/jobs")) {
            CHECKS.add(request);
            request.response().setStatusCode(known ? 200 : 401).putHeader("Content-Type", "application/json")
                    .end(known ? "{\"jobs\":[]}" : "{\"code\":401,\"error\":\"Permission Denied\"}");
            return;
        }
        UPGRADES_AT.add(System.nanoTime());
        Handshake next = HANDSHAKES.isEmpty() ? Handshake.accept(0) : HANDSHAKES.pollFirst();
        if (next.unanswered()) {
            request.pause();
            return; // never answered: the client's time limit runs out
        }
        String authorization = request.getHeader("Authorization");
        if (!known && !"Bearer sm-closed".equals(authorization)) {
            request.response().setStatusCode(401).end("{\"message\":\"Unauthorized\"}");
            return;
        }
        String path = request.path();
        request.pause();
        vertx.setTimer(Math.max(1, next.delayMs()), t -> request.toWebSocket()
                .onSuccess(ws -> serve(new Session(ws, path, authorization))));
    }

    private static void serve(Session session) {
        SESSIONS.add(session);
        if ("Bearer sm-closed".equals(session.authorization)) { // the Error frame did not reach us: the close alone
            session.ws.close((short) 4001, "not_authorised");
            return;
        }
        session.ws.binaryMessageHandler(message -> {
            session.received.add("audio");
            if (!session.started) {
                session.ws.writeTextMessage(error("protocol_error", "Audio received before RecognitionStarted"));
                session.ws.close((short) 1003, "protocol_error");
                return;
            }
            session.messages.add(message.length());
            session.ws.writeTextMessage(new JsonObject().put("message", "AudioAdded")
                    .put("seq_no", session.messages.size()).encode());
            for (int at = 0; at + session.frameBytes <= message.length(); at += session.frameBytes) {
                session.frames.add((int) message.getByte(at));
            }
            List<String> words = words(session, session.turnFrom, session.frames.size());
            if (!words.isEmpty()) {
                session.ws.writeTextMessage(transcript("AddPartialTranscript", session, session.turnFrom,
                        session.frames.size(), words, false));
            }
        });
        session.ws.textMessageHandler(text -> {
            JsonObject message = new JsonObject(text);
            String type = message.getString("message");
            session.received.add(type);
            session.controls.add(message);
            switch (type) {
                case "StartRecognition" -> recognition(session, message);
                case "ForceEndOfUtterance" -> {
                    if (!session.deaf) {
                        endUtterance(session, true);
                    }
                }
                case "EndOfStream" -> {
                    session.ws.writeTextMessage(new JsonObject().put("message", "EndOfTranscript").encode());
                    session.ws.close((short) 1000, "");
                }
                default -> {
                    session.ws.writeTextMessage(error("invalid_message", "Unknown message " + type));
                    session.ws.close((short) 1003, "protocol_error");
                }
            }
        });
    }

    private static void recognition(Session session, JsonObject message) {
        session.start = message;
        JsonObject audio = message.getJsonObject("audio_format");
        boolean mulaw = "mulaw".equals(audio.getString("encoding"));
        session.frameBytes = audio.getInteger("sample_rate") / 1_000 * 20 * (mulaw ? 1 : 2);
        String operatingPoint = message.getJsonObject("transcription_config").getString("operating_point");
        if (!"enhanced".equals(operatingPoint) && !"standard".equals(operatingPoint)) {
            session.ws.writeTextMessage(error("invalid_model", "Operating point " + operatingPoint
                    + " is not supported"));
            session.ws.close((short) 4004, "invalid_model");
            return;
        }
        session.ws.writeTextMessage(new JsonObject().put("message", "Info").put("type", "recognition_quality")
                .put("quality", mulaw ? "telephony" : "broadcast").put("reason", "Running recognition").encode());
        vertx.setTimer(Math.max(1, recognitionDelayMs), t -> {
            session.started = true;
            session.ws.writeTextMessage(new JsonObject().put("message", "RecognitionStarted")
                    .put("id", "s-" + SESSIONS.indexOf(session)).encode());
        });
    }

    /**
     * The end of the utterance: the words since the last final (with {@link Session#split}, the first word's final
     * first, not forced), then EndOfUtterance.
     */
    private static void endUtterance(Session session, boolean forced) {
        int from = session.turnFrom;
        int to = session.frames.size();
        session.turnFrom = to;
        int cut = from;
        if (session.split) {
            while (cut < to && (session.frames.get(cut) == SILENCE || session.frames.get(cut).equals(
                    session.frames.get(from)))) {
                cut++;
            }
            session.ws.writeTextMessage(transcript("AddTranscript", session, from, cut, words(session, from, cut),
                    false));
        }
        session.ws.writeTextMessage(transcript("AddTranscript", session, cut, to, words(session, cut, to), forced));
        JsonObject eou = new JsonObject().put("message", "EndOfUtterance").put("metadata", new JsonObject()
                .put("start_time", to * 0.02).put("end_time", to * 0.02));
        if (forced) {
            eou.put("forced", true);
        }
        session.ws.writeTextMessage(eou.encode());
    }

    private static List<String> words(Session session, int from, int to) {
        List<String> words = new ArrayList<>();
        int previous = -1;
        for (int i = from; i < to; i++) {
            int word = session.frames.get(i);
            if (word != SILENCE && word != previous) {
                words.add(WORDS[word]);
            }
            previous = word;
        }
        return words;
    }

    private static String transcript(String type, Session session, int from, int to, List<String> words,
            boolean forced) {
        JsonArray results = new JsonArray();
        for (String word : words) {
            results.add(new JsonObject().put("type", "word").put("alternatives", new JsonArray()
                    .add(new JsonObject().put("content", word).put("confidence", 0.9))));
        }
        JsonObject message = new JsonObject().put("message", type).put("format", "2.1")
                .put("metadata", new JsonObject().put("start_time", from * 0.02).put("end_time", to * 0.02)
                        .put("transcript", words.isEmpty() ? "" : String.join(" ", words) + " "))
                .put("results", results);
        if (forced) {
            message.put("forced", true);
        }
        return message.encode();
    }

    private static String error(String type, String reason) {
        return new JsonObject().put("message", "Error").put("type", type).put("reason", reason).encode();
    }

    /** The caller says {@code word} for {@code frames} 20 ms frames of μ-law. */
    private static void say(SpeechToText.Stream stream, int word, int frames) throws InterruptedException {
        for (int i = 0; i < frames; i++) {
            byte[] frame = new byte[160];
            frame[0] = (byte) word;
            stream.audio(frame);
            Thread.sleep(5);
        }
    }

    private static SpeechmaticsListen listen(Heard heard, String key, Duration timeout) {
        String url = base.replace("http://", "ws://") + "/v2";
        return new SpeechmaticsListen(() -> http.webSocket(url, Map.of("Authorization", "Bearer " + key), timeout,
                true), vertx, new RetryBudget(3, Duration.ofMillis(200), Duration.ofSeconds(2)), AudioFormat.MULAW_8K,
                SpeechmaticsListen.start("enhanced", "en", AudioFormat.MULAW_8K, List.of()), heard);
    }

    private static SpeechmaticsListen listen(Heard heard) {
        return listen(heard, KEY, Duration.ofMillis(800));
    }

    private static ModelEndpoint speechmatics(String key, String model, String language) {
        return new ModelEndpoint(ModelService.STT, "speechmatics", model, null, List.of(key),
                Map.of("provider", "speechmatics", "model", model, "language", language), false);
    }

    @Test
    void theSessionStartsInTheCallsEncodingAndTheAudioWaitsForRecognitionStarted() throws Exception {
        recognitionDelayMs = 200;
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(speechmatics(KEY, "enhanced", "en")
                .withKeyterms(List.of("Acme Pay", " Zyrtec ", "Acme Pay")), AudioFormat.MULAW_8K, heard);
        say(stream, 1, 10); // said before Speechmatics is ready
        await(() -> SESSIONS.size() == 1 && SESSIONS.getFirst().frames.size() == 10, "the session and its audio");
        Session session = SESSIONS.getFirst();
        assertThat(session.path).isEqualTo("/v2");
        assertThat(session.authorization).isEqualTo("Bearer " + KEY);
        assertThat(session.start.getJsonObject("audio_format")).isEqualTo(new JsonObject().put("type", "raw")
                .put("encoding", "mulaw").put("sample_rate", 8000));
        JsonObject config = session.start.getJsonObject("transcription_config");
        assertThat(config.getString("language")).isEqualTo("en");
        assertThat(config.getString("operating_point")).isEqualTo("enhanced");
        assertThat(config.getBoolean("enable_partials")).isTrue();
        assertThat(config.getDouble("max_delay")).isEqualTo(SpeechmaticsListen.MAX_DELAY);
        assertThat(config.getJsonObject("conversation_config").getDouble("end_of_utterance_silence_trigger"))
                .isLessThan(config.getDouble("max_delay"));
        assertThat(config.getJsonArray("additional_vocab")).containsExactly(new JsonObject().put("content",
                "Acme Pay"), new JsonObject().put("content", "Zyrtec"));
        await(() -> heard.events.contains("interim:where"), "the partial");

        stream.finalizeNow();
        await(() -> heard.finals().size() == 1, "the forced final");
        say(stream, 2, 5);
        await(() -> session.frames.size() == 15, "the frames as they come");
        stream.finalizeNow();
        await(() -> heard.finals().size() == 2, "the second forced final");
        assertThat(heard.finals()).containsExactly("final:where", "final:is");
        assertThat(session.messages).as("each 20 ms frame as it came, no batching").hasSize(15)
                .containsOnly(160);
        List<Double> stamps = session.controls.stream().filter(c -> "ForceEndOfUtterance".equals(
                c.getString("message"))).map(c -> c.getDouble("timestamp")).toList();
        assertThat(stamps).as("the socket's audio time").containsExactly(0.2, 0.3);

        stream.close();
        await(session.ws::isClosed, "EndOfTranscript and the close");
        assertThat(session.received).as("StartRecognition first, audio only after RecognitionStarted, no keep-alive")
                .first().isEqualTo("StartRecognition");
        assertThat(session.received.stream().filter(r -> !"audio".equals(r)).toList()).containsExactly(
                "StartRecognition", "ForceEndOfUtterance", "ForceEndOfUtterance", "EndOfStream");
        assertThat(session.controls.getLast().getInteger("last_seq_no")).as("every audio message counted")
                .isEqualTo(15);
        assertThat(stream.seconds()).isEqualTo(0.3);
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));

        Heard browser = new Heard();
        speech.open(speechmatics(KEY, "standard", "de"), AudioFormat.PCM_16K, browser);
        await(() -> SESSIONS.size() == 2 && SESSIONS.get(1).start != null, "the browser's session");
        JsonObject asked = SESSIONS.get(1).start;
        assertThat(asked.getJsonObject("audio_format")).isEqualTo(new JsonObject().put("type", "raw")
                .put("encoding", "pcm_s16le").put("sample_rate", 16000));
        assertThat(asked.getJsonObject("transcription_config").getString("operating_point")).isEqualTo("standard");
        assertThat(asked.getJsonObject("transcription_config").getString("language")).isEqualTo("de");
        assertThat(asked.getJsonObject("transcription_config").containsKey("additional_vocab")).isFalse();
    }

    @Test
    void finalsMidTurnPassAsTheyComeAndThoseBeforeTheForcedOneAreOneFinal() throws Exception {
        Heard heard = new Heard();
        SpeechmaticsListen stream = listen(heard);
        await(() -> SESSIONS.size() == 1 && SESSIONS.getFirst().started, "the session");
        Session session = SESSIONS.getFirst();
        say(stream, 0, 10);
        say(stream, SILENCE, 25); // half a second of silence: Speechmatics ends the utterance itself
        await(() -> session.frames.size() == 35, "the audio");
        vertx.runOnContext(v -> endUtterance(session, false));
        await(() -> heard.finals().size() == 1, "the final Speechmatics gave on its own");
        Thread.sleep(100);
        assertThat(heard.finals()).as("its end of utterance is not passed on: our voice activity decides")
                .containsExactly("final:hello");

        session.split = true;
        say(stream, 1, 10);
        say(stream, 2, 10);
        stream.finalizeNow();
        await(() -> heard.finals().size() == 2, "the turn's final");
        Thread.sleep(100);
        assertThat(heard.finals()).as("the final before the forced one is part of it, not the turn's end")
                .containsExactly("final:hello", "final:where is");

        session.split = false;
        stream.finalizeNow(); // nothing said since: an empty final, the recognizer has nothing more
        await(() -> heard.finals().size() == 3, "the empty final");
        assertThat(heard.finals()).containsExactly("final:hello", "final:where is", "final:");
        stream.close();
    }

    @Test
    void aSessionEndedMidTurnByAnErrorIsOpenedAgainAndTheTurnIsHeardOnceWithTheGapsAudio() throws Exception {
        Heard heard = new Heard();
        SpeechmaticsListen stream = listen(heard);
        await(() -> SESSIONS.size() == 1 && SESSIONS.getFirst().started, "the first session");
        say(stream, 0, 10); // "hello", settled before the error
        stream.finalizeNow();
        await(() -> heard.finals().contains("final:hello"), "the first turn");

        say(stream, 1, 10); // "where" reaches the first session, then Speechmatics ends it
        await(() -> heard.events.contains("interim:where"), "the turn's start heard by the first session");
        HANDSHAKES.add(Handshake.accept(300)); // the new session takes a while: the gap
        Session first = SESSIONS.getFirst();
        first.ws.writeTextMessage(error("job_error", "Unable to process the job"));
        first.ws.close((short) 4013, "job_error");
        await(() -> UPGRADES_AT.size() == 2, "opened again at once");
        say(stream, 2, 10); // "is": said during the gap
        await(() -> SESSIONS.size() == 2 && SESSIONS.get(1).started, "the second session");
        say(stream, 3, 10); // "my": on the new session
        stream.finalizeNow();
        await(() -> heard.finals().size() == 2, "the turn across the error");

        assertThat(heard.finals()).containsExactly("final:hello", "final:where is my");
        Session second = SESSIONS.get(1);
        assertThat(second.frames).as("the unsettled turn first, then the gap's audio, then the rest; no settled audio")
                .startsWith(1, 1, 1).doesNotContain(0).hasSize(30).endsWith(3);
        assertThat(second.frames.indexOf(2)).isEqualTo(10);
        assertThat(second.received.getFirst()).isEqualTo("StartRecognition");
        assertThat(stream.seconds()).as("the caller's audio counted once").isEqualTo(0.8);
        stream.close();
        await(second.ws::isClosed, "EndOfStream on the open session");
        assertThat(second.controls.getLast().getInteger("last_seq_no")).isEqualTo(30);
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
    }

    @Test
    void aForceEndOfUtteranceLostWithItsSessionIsSentAgainAfterTheTurnsAudio() throws Exception {
        Heard heard = new Heard();
        SpeechmaticsListen stream = listen(heard);
        await(() -> SESSIONS.size() == 1 && SESSIONS.getFirst().started, "the first session");
        Session first = SESSIONS.getFirst();
        first.deaf = true;
        say(stream, 4, 10);
        stream.finalizeNow();
        await(() -> first.received.contains("ForceEndOfUtterance"), "the ForceEndOfUtterance reached the session");
        first.ws.close((short) 1011, "internal_error");
        await(() -> heard.finals().size() == 1, "the turn on the new session");
        assertThat(heard.finals()).containsExactly("final:order");
        Session second = SESSIONS.get(1);
        assertThat(second.frames).hasSize(10).containsOnly(4);
        assertThat(second.received.stream().filter(r -> !"audio".equals(r)).toList())
                .containsExactly("StartRecognition", "ForceEndOfUtterance");
        assertThat(second.received.getLast()).as("after the turn's audio").isEqualTo("ForceEndOfUtterance");
        assertThat(second.controls.getLast().getDouble("timestamp")).isEqualTo(0.2);
        stream.close();
    }

    @Test
    void aRefusedKeyModelOrAccountFailsTheStreamOnceWithSpeechmaticsWordsAndIsNotTriedAgain() throws Exception {
        Heard refused = new Heard();
        SpeechToText.Stream stream = speech.open(speechmatics("sm-wrong", "enhanced", "en"), AudioFormat.MULAW_8K,
                refused);
        say(stream, 1, 5);
        await(() -> !refused.events.isEmpty(), "the refused key");
        Thread.sleep(500);
        assertThat(refused.events).singleElement().asString().startsWith("failed:Speechmatics").contains("401");
        assertThat(UPGRADES_AT).as("a refused key is not worth another try").hasSize(1);

        clear();
        Heard model = new Heard();
        speech.open(speechmatics(KEY, "turbo", "en"), AudioFormat.MULAW_8K, model);
        await(() -> !model.events.isEmpty(), "the refused model");
        Thread.sleep(500);
        assertThat(model.events).containsExactly(
                "failed:Speechmatics: Operating point turbo is not supported (invalid_model)");
        assertThat(UPGRADES_AT).hasSize(1);

        clear();
        Heard closed = new Heard();
        speech.open(speechmatics("sm-closed", "enhanced", "en"), AudioFormat.MULAW_8K, closed);
        await(() -> !closed.events.isEmpty(), "the close without its Error frame");
        Thread.sleep(500);
        assertThat(closed.events).singleElement().asString().startsWith("failed:Speechmatics")
                .contains("4001", "not_authorised");
        assertThat(UPGRADES_AT).hasSize(1);
    }

    @Test
    void aConnectionThatTimesOutIsTriedAgainAndTheAudioSaidMeanwhileIsHeard() throws Exception {
        HANDSHAKES.add(Handshake.hang());
        Heard heard = new Heard();
        SpeechmaticsListen stream = listen(heard, KEY, Duration.ofMillis(400));
        say(stream, 1, 10);
        await(() -> SESSIONS.size() == 1 && SESSIONS.getFirst().frames.size() == 10, "connected on the second try");
        stream.finalizeNow();
        await(() -> heard.finals().size() == 1, "the turn");
        assertThat(heard.finals()).containsExactly("final:where");
        assertThat(UPGRADES_AT).hasSize(2);
        assertThat((UPGRADES_AT.get(1) - UPGRADES_AT.get(0)) / 1_000_000).as("the time limit, then a backoff")
                .isGreaterThanOrEqualTo(450);
        stream.close();

        clear();
        for (int i = 0; i < 5; i++) {
            HANDSHAKES.add(Handshake.hang());
        }
        Heard failed = new Heard();
        listen(failed, KEY, Duration.ofMillis(400)).audio(new byte[160]);
        await(() -> !failed.events.isEmpty(), "the failure");
        Thread.sleep(600);
        assertThat(failed.events).singleElement().asString().startsWith("failed:Speechmatics: Could not reach");
        assertThat(UPGRADES_AT).as("three tries").hasSize(3);
    }

    @Test
    void theKeyIsCheckedByListingBatchJobsNoSessionOpened() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(speechmatics(KEY, "enhanced", "en")).await().atMost(Duration.ofSeconds(5)))
                .isEmpty();
        assertThat(CHECKS).singleElement().satisfies(r -> {
            assertThat(r.method().name()).isEqualTo("GET");
            assertThat(r.query()).isEqualTo("limit=1");
            assertThat(r.getHeader("Authorization")).isEqualTo("Bearer " + KEY);
        });
        assertThat(checks.problem(speechmatics("sm-wrong", "enhanced", "en")).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Invalid Speechmatics API key")
                        .contains("401", "Permission Denied"));
        assertThat(UPGRADES_AT).isEmpty();
    }
}
