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
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Gladia's live v2 as a call listens with it, against a local server that answers as Gladia does and is an oracle of
 * the audio (each 20 ms frame's first byte names the word it carries, {@link #SILENCE} none, {@link #NOISE} speech
 * without words): the init request (the key in x-gladia-key, the call's encoding, bit depth and rate, model, language,
 * dictionary, endpointing, the messages asked for) and its session URL's socket (the token, no key), the audio as the
 * frames come, each acknowledged by its byte range, speech_start, partials, Gladia's own end of utterance (a final and
 * speech_end after the endpointing's silence), stop_recording at the end and no other message (no keep-alive). The
 * faults: a socket dropped mid-utterance (the session resumed, the audio lost in flight sent again, heard once), a
 * session Gladia ended (a new one, with the audio it had not acknowledged), init requests refused for good (401,
 * 400: no second try) or for a while (503), init requests and upgrades that time out; and the key check.
 */
class GladiaListenTest {

    private static final int NOISE = 6;
    private static final String KEY = "gl-key";

    /** What the server does with the next init request or upgrade. */
    record Answer(int status, boolean unanswered, long delayMs) {

        static Answer accept(long delayMs) {
            return new Answer(200, false, delayMs);
        }

        static Answer refuse(int status) {
            return new Answer(status, false, 0);
        }

        static Answer hang() {
            return new Answer(0, true, 0);
        }
    }

    /** One live session as the server keeps it across its sockets. */
    static final class Session {
        final String token;
        final JsonObject config;
        final String key;
        final int frameBytes;
        final int endpointingFrames;
        /** The word of each 20 ms frame the session took, in order, across its sockets. */
        final List<Integer> frames = new CopyOnWriteArrayList<>();
        final List<Integer> messages = new CopyOnWriteArrayList<>();
        /** "audio" for each binary message taken, the type of each text message, in order. */
        final List<String> received = new CopyOnWriteArrayList<>();
        final List<ServerWebSocket> sockets = new CopyOnWriteArrayList<>();
        final List<MultiMap> socketHeaders = new CopyOnWriteArrayList<>();
        volatile long bytes;
        /** Audio lost in flight: neither taken nor acknowledged. */
        volatile boolean deaf;
        volatile boolean ended;
        int utteranceFrom;
        int silence;
        boolean speaking;
        int utterances;

        Session(String token, JsonObject config, String key) {
            this.token = token;
            this.config = config;
            this.key = key;
            boolean mulaw = "wav/ulaw".equals(config.getString("encoding"));
            this.frameBytes = config.getInteger("sample_rate") / 1_000 * 20 * (mulaw ? 1 : 2);
            this.endpointingFrames = (int) Math.round(config.getDouble("endpointing", 0.05) * 50);
        }

        ServerWebSocket socket() {
            return sockets.getLast();
        }
    }

    private static final Deque<Answer> INIT_ANSWERS = new ConcurrentLinkedDeque<>();
    private static final Deque<Answer> UPGRADE_ANSWERS = new ConcurrentLinkedDeque<>();
    private static final List<Session> SESSIONS = new CopyOnWriteArrayList<>();
    private static final Map<String, Session> BY_TOKEN = new ConcurrentHashMap<>();
    private static final List<Long> INITS_AT = new CopyOnWriteArrayList<>();
    private static final List<Long> UPGRADES_AT = new CopyOnWriteArrayList<>();
    private static final List<HttpServerRequest> CHECKS = new CopyOnWriteArrayList<>();
    private static Vertx vertx;
    private static GuardedHttp http;
    private static ProviderApis apis;
    private static String base;
    private static SpeechProviders speech;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        HttpServer server = vertx.createHttpServer().requestHandler(GladiaListenTest::request);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + server.actualPort();
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(800));
        apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v").pointing("gladia", base);
        speech = new SpeechProviders(http, apis, vertx, Duration.ofMillis(800), 3, Duration.ofMillis(200),
                Duration.ofSeconds(2));
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        INIT_ANSWERS.clear();
        UPGRADE_ANSWERS.clear();
        SESSIONS.clear();
        BY_TOKEN.clear();
        INITS_AT.clear();
        UPGRADES_AT.clear();
        CHECKS.clear();
    }

    private static void request(HttpServerRequest request) {
        boolean known = KEY.equals(request.getHeader("x-gladia-key"));
        boolean upgrade = "websocket".equalsIgnoreCase(request.getHeader("Upgrade"));
        if (request.path().equals("/v2/live") && request.method().name().equals("GET") && !upgrade) {
            CHECKS.add(request);
            request.response().setStatusCode(known ? 200 : 401).putHeader("Content-Type", "application/json")
                    .end(known ? "{\"first\":\"\",\"current\":\"\",\"next\":null,\"items\":[]}"
                            : "{\"statusCode\":401,\"message\":\"Invalid or missing API key\"}");
        } else if (request.path().equals("/v2/live") && request.method().name().equals("POST")) {
            init(request, known);
        } else if (upgrade) {
            socket(request);
        } else {
            request.response().setStatusCode(404).end();
        }
    }

    /** POST /v2/live: a session and its URL, or a refusal. */
    private static void init(HttpServerRequest request, boolean known) {
        INITS_AT.add(System.nanoTime());
        Answer next = INIT_ANSWERS.isEmpty() ? Answer.accept(0) : INIT_ANSWERS.pollFirst();
        if (next.unanswered()) {
            return; // never answered: the client's time limit runs out
        }
        String key = request.getHeader("x-gladia-key");
        request.body().onSuccess(body -> {
            JsonObject config = body.toJsonObject();
            if (!known) {
                request.response().setStatusCode(401).putHeader("Content-Type", "application/json")
                        .end("{\"statusCode\":401,\"message\":\"Invalid or missing API key\"}");
            } else if (next.status() != 200) {
                request.response().setStatusCode(next.status()).end("{\"message\":\"Service unavailable\"}");
            } else if (config.getJsonObject("language_config") != null && config.getJsonObject("language_config")
                    .getJsonArray("languages").contains("xx")) {
                request.response().setStatusCode(400).putHeader("Content-Type", "application/json")
                        .end("{\"statusCode\":400,\"message\":"
                                + "\"language_config.languages.0 must be a valid language\"}");
            } else {
                String token = "t" + (SESSIONS.size() + 1);
                Session session = new Session(token, config, key);
                SESSIONS.add(session);
                BY_TOKEN.put(token, session);
                request.response().setStatusCode(201).putHeader("Content-Type", "application/json")
                        .end(new JsonObject().put("id", "s-" + token).put("created_at", "2026-11-27T10:00:00Z")
                                .put("url", base.replace("http://", "ws://") + "/v2/live?token=" + token).encode());
            }
        });
    }

    /** The session's WebSocket: the session goes on (or, ended, is closed with 4403). */
    private static void socket(HttpServerRequest request) {
        UPGRADES_AT.add(System.nanoTime());
        Answer next = UPGRADE_ANSWERS.isEmpty() ? Answer.accept(0) : UPGRADE_ANSWERS.pollFirst();
        request.pause();
        if (next.unanswered()) {
            return;
        }
        Session session = BY_TOKEN.get(String.valueOf(request.getParam("token")));
        if (session == null) {
            request.response().setStatusCode(404).end();
            return;
        }
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().addAll(request.headers());
        vertx.setTimer(Math.max(1, next.delayMs()), t -> request.toWebSocket().onSuccess(ws -> {
            session.sockets.add(ws);
            session.socketHeaders.add(headers);
            if (session.ended) {
                ws.close((short) 4403, "Session is already ended");
                return;
            }
            serve(session, ws);
        }));
    }

    private static void serve(Session session, ServerWebSocket ws) {
        ws.binaryMessageHandler(message -> {
            if (session.deaf) {
                return; // lost in flight
            }
            session.received.add("audio");
            session.messages.add(message.length());
            long from = session.bytes;
            session.bytes += message.length();
            ws.writeTextMessage(new JsonObject().put("type", "audio_chunk").put("session_id", "s-" + session.token)
                    .put("acknowledged", true).put("error", (Object) null).put("data", new JsonObject()
                            .put("byte_range", new JsonArray().add(from).add(session.bytes))
                            .put("time_range", new JsonArray().add(from / (session.frameBytes * 50.0))
                                    .add(session.bytes / (session.frameBytes * 50.0)))).encode());
            boolean spoken = false;
            for (int at = 0; at + session.frameBytes <= message.length(); at += session.frameBytes) {
                int word = message.getByte(at);
                session.frames.add(word);
                if (word != SILENCE) {
                    if (!session.speaking) {
                        session.speaking = true;
                        ws.writeTextMessage(event("speech_start", session));
                    }
                    session.silence = 0;
                    spoken = true;
                } else if (session.speaking && ++session.silence >= session.endpointingFrames) {
                    endUtterance(session, ws);
                }
            }
            List<String> words = words(session, session.utteranceFrom, session.frames.size());
            if (spoken && !words.isEmpty()) {
                ws.writeTextMessage(transcript(session, words, false));
            }
        });
        ws.textMessageHandler(text -> {
            String type = new JsonObject(text).getString("type");
            session.received.add(type);
            if ("stop_recording".equals(type)) {
                session.ended = true;
                ws.close((short) 1000, "");
            }
        });
    }

    /** The endpointing's silence passed: the utterance's final (when it had words), then speech_end. */
    private static void endUtterance(Session session, ServerWebSocket ws) {
        List<String> words = words(session, session.utteranceFrom, session.frames.size());
        if (!words.isEmpty()) {
            ws.writeTextMessage(transcript(session, words, true));
            session.utterances++;
        }
        ws.writeTextMessage(event("speech_end", session));
        session.speaking = false;
        session.silence = 0;
        session.utteranceFrom = session.frames.size();
    }

    private static List<String> words(Session session, int from, int to) {
        List<String> words = new ArrayList<>();
        int previous = -1;
        for (int i = from; i < to; i++) {
            int word = session.frames.get(i);
            if (word < WORDS.length && word != previous) {
                words.add(WORDS[word]);
            }
            previous = word;
        }
        return words;
    }

    private static String transcript(Session session, List<String> words, boolean fin) {
        return new JsonObject().put("type", "transcript").put("session_id", "s-" + session.token)
                .put("data", new JsonObject().put("id", session.token + "-u" + session.utterances)
                        .put("is_final", fin).put("utterance", new JsonObject()
                                .put("start", session.utteranceFrom * 0.02).put("end", session.frames.size() * 0.02)
                                .put("text", " " + String.join(" ", words)).put("language", "en")
                                .put("channel", 0).put("confidence", 0.9).put("words", new JsonArray())))
                .encode();
    }

    private static String event(String type, Session session) {
        return new JsonObject().put("type", type).put("session_id", "s-" + session.token)
                .put("data", new JsonObject().put("time", session.frames.size() * 0.02).put("channel", 0)).encode();
    }

    private static GladiaListen listen(Heard heard, Duration timeout) {
        String body = GladiaListen.configuration("solaria-1", "en", AudioFormat.MULAW_8K, List.of()).encode();
        return new GladiaListen(() -> Future.fromCompletionStage(http.postJson(base + "/v2/live",
                Map.of("x-gladia-key", KEY), body, timeout, true).subscribeAsCompletionStage()),
                url -> http.webSocket(url, Map.of(), timeout, true), vertx,
                new RetryBudget(3, Duration.ofMillis(200), Duration.ofSeconds(2)), AudioFormat.MULAW_8K, heard);
    }

    private static GladiaListen listen(Heard heard) {
        return listen(heard, Duration.ofMillis(800));
    }

    private static ModelEndpoint gladia(String key, String language) {
        return new ModelEndpoint(ModelService.STT, "gladia", "solaria-1", null, List.of(key),
                Map.of("provider", "gladia", "model", "solaria-1", "language", language), false);
    }

    private static List<Integer> frames(int... runs) {
        List<Integer> frames = new ArrayList<>();
        for (int i = 0; i < runs.length; i += 2) {
            frames.addAll(Collections.nCopies(runs[i + 1], runs[i]));
        }
        return frames;
    }

    @Test
    void theSessionIsAskedForThenItsSocketTakesTheAudioAsItComes() throws Exception {
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(gladia(KEY, "en").withKeyterms(List.of("Acme Pay", " Zyrtec ",
                "Acme Pay")), AudioFormat.MULAW_8K, heard);
        await(() -> SESSIONS.size() == 1 && SESSIONS.getFirst().sockets.size() == 1, "the session and its socket");
        Session session = SESSIONS.getFirst();
        assertThat(session.key).isEqualTo(KEY);
        JsonObject config = session.config;
        assertThat(config.getString("encoding")).as("the phone's μ-law as it is").isEqualTo("wav/ulaw");
        assertThat(config.getInteger("bit_depth")).isEqualTo(8);
        assertThat(config.getInteger("sample_rate")).isEqualTo(8000);
        assertThat(config.getInteger("channels")).isEqualTo(1);
        assertThat(config.getString("model")).isEqualTo("solaria-1");
        assertThat(config.getDouble("endpointing")).isEqualTo(GladiaListen.ENDPOINTING);
        assertThat(config.getJsonObject("language_config")).isEqualTo(new JsonObject()
                .put("languages", new JsonArray().add("en")).put("code_switching", false));
        assertThat(config.getJsonObject("realtime_processing").getBoolean("custom_vocabulary")).isTrue();
        assertThat(config.getJsonObject("realtime_processing").getJsonObject("custom_vocabulary_config")
                .getJsonArray("vocabulary")).containsExactly("Acme Pay", "Zyrtec");
        JsonObject messages = config.getJsonObject("messages_config");
        assertThat(List.of("receive_partial_transcripts", "receive_final_transcripts", "receive_speech_events",
                "receive_acknowledgments")).allSatisfy(flag -> assertThat(messages.getBoolean(flag)).as(flag).isTrue());
        assertThat(session.socketHeaders.getFirst().contains("x-gladia-key")).as("the token, not the key").isFalse();

        say(stream, 1, 10);
        await(() -> heard.events.contains("interim:where"), "the partial");
        say(stream, SILENCE, 16); // Gladia's endpointing ends the utterance
        await(() -> heard.finals().size() == 1, "Gladia's final");
        stream.finalizeNow(); // nothing open: nothing more is coming, at once
        await(() -> heard.finals().size() == 2, "the empty final");

        say(stream, 2, 10);
        await(() -> heard.events.contains("interim:is"), "the next partial");
        stream.finalizeNow(); // the utterance is open: its final answers
        Thread.sleep(100);
        assertThat(heard.finals()).hasSize(2);
        say(stream, SILENCE, 16);
        await(() -> heard.finals().size() == 3, "the utterance's final");
        Thread.sleep(100);
        assertThat(heard.finals()).containsExactly("final:where", "final:", "final:is");
        assertThat(session.messages).as("each 20 ms frame as it came").hasSize(52).containsOnly(160);

        stream.close();
        await(() -> session.received.contains("stop_recording"), "stop_recording at the end");
        assertThat(session.received.stream().filter(r -> !"audio".equals(r)).toList()).as("no other message")
                .containsExactly("stop_recording");
        assertThat(stream.seconds()).isEqualTo(1.04);
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));

        speech.open(gladia(KEY, "en"), AudioFormat.PCM_16K, new Heard()).close();
        await(() -> SESSIONS.size() == 2, "the browser's session");
        assertThat(SESSIONS.get(1).config.getString("encoding")).isEqualTo("wav/pcm");
        assertThat(SESSIONS.get(1).config.getInteger("bit_depth")).isEqualTo(16);
        assertThat(SESSIONS.get(1).config.getInteger("sample_rate")).isEqualTo(16000);
        assertThat(SESSIONS.get(1).config.containsKey("realtime_processing")).isFalse();

        SpeechToText.Stream wide = speech.open(gladia(KEY, "en"), AudioFormat.PCM_24K, new Heard());
        await(() -> SESSIONS.size() == 3 && SESSIONS.get(2).sockets.size() == 1, "a 24 kHz call's session");
        assertThat(SESSIONS.get(2).config.getInteger("sample_rate")).as("a rate Gladia does not take: 16 kHz")
                .isEqualTo(16000);
        for (int i = 0; i < 10; i++) {
            wide.audio(new byte[960]);
        }
        await(() -> SESSIONS.get(2).bytes >= 6_000, "the resampled audio");
        assertThat(SESSIONS.get(2).bytes).as("two thirds of the samples").isLessThanOrEqualTo(6_400);
        wide.close();
    }

    @Test
    void speechThatEndsWithoutWordsAnswersAFinalizeWithAnEmptyFinal() throws Exception {
        Heard heard = new Heard();
        GladiaListen stream = listen(heard);
        await(() -> SESSIONS.size() == 1 && SESSIONS.getFirst().sockets.size() == 1, "the session");
        say(stream, NOISE, 10);
        stream.finalizeNow(); // Gladia hears speech: the answer waits for its end
        Thread.sleep(100);
        assertThat(heard.finals()).isEmpty();
        say(stream, SILENCE, 16);
        await(() -> heard.finals().size() == 1, "speech_end");
        Thread.sleep(100);
        assertThat(heard.events).containsExactly("final:");
        stream.close();
    }

    @Test
    void aSocketDroppedMidUtteranceResumesTheSessionAndTheAudioLostInFlightIsHeardOnce() throws Exception {
        Heard heard = new Heard();
        GladiaListen stream = listen(heard);
        await(() -> SESSIONS.size() == 1 && SESSIONS.getFirst().sockets.size() == 1, "the session");
        Session session = SESSIONS.getFirst();
        say(stream, 0, 10);
        say(stream, SILENCE, 16);
        await(() -> heard.finals().contains("final:hello"), "the first utterance");

        say(stream, 1, 10); // "where" reaches Gladia
        await(() -> heard.events.contains("interim:where"), "the utterance's start");
        session.deaf = true;
        say(stream, 2, 10); // "is" is lost in flight: never acknowledged
        UPGRADE_ANSWERS.add(Answer.accept(300)); // the socket opened again takes a while: the gap
        session.socket().close((short) 1011, "Internal error");
        session.deaf = false;
        await(() -> UPGRADES_AT.size() == 2, "opened again at once");
        say(stream, 3, 10); // "my": said during the gap
        await(() -> session.sockets.size() == 2, "the session's second socket");
        say(stream, 4, 10); // "order": on the new socket
        say(stream, SILENCE, 16);
        await(() -> heard.finals().size() == 2, "the utterance across the drop");

        assertThat(heard.finals()).containsExactly("final:hello", "final:where is my order");
        assertThat(INITS_AT).as("the same session, resumed").hasSize(1);
        List<Integer> said = frames(0, 10, SILENCE, 16, 1, 10, 2, 10, 3, 10, 4, 10, SILENCE, 16);
        // the final can come before the last silence reaches the server: wait for it, then compare
        await(() -> session.frames.size() >= said.size(), "the last of the silence");
        assertThat(session.frames).as("the session heard every frame once, in order").isEqualTo(said);
        assertThat(stream.seconds()).as("the caller's audio counted once").isEqualTo(1.64);
        stream.close();
        await(() -> session.received.contains("stop_recording"), "stop_recording on the open socket");
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
    }

    @Test
    void aSessionGladiaEndedIsStartedAgainWithTheAudioItHadNotAcknowledged() throws Exception {
        Heard heard = new Heard();
        GladiaListen stream = listen(heard);
        await(() -> SESSIONS.size() == 1 && SESSIONS.getFirst().sockets.size() == 1, "the first session");
        say(stream, 0, 10);
        say(stream, SILENCE, 16);
        await(() -> heard.finals().contains("final:hello"), "the first utterance");
        UPGRADE_ANSWERS.add(Answer.accept(300));
        SESSIONS.getFirst().ended = true;
        SESSIONS.getFirst().socket().close((short) 4408, "Session timed out");
        await(() -> INITS_AT.size() == 2, "a new session asked for");
        say(stream, 1, 10); // said during the gap
        await(() -> SESSIONS.size() == 2 && SESSIONS.get(1).sockets.size() == 1, "the second session's socket");
        say(stream, SILENCE, 16);
        await(() -> heard.finals().size() == 2, "the utterance on the new session");
        assertThat(heard.finals()).containsExactly("final:hello", "final:where");
        await(() -> SESSIONS.get(1).frames.size() >= 26, "the last of the silence");
        assertThat(SESSIONS.get(1).frames).as("only what the first session had not acknowledged")
                .isEqualTo(frames(1, 10, SILENCE, 16));
        assertThat(SESSIONS.getFirst().sockets).as("the ended session's URL is not tried again").hasSize(1);
        stream.close();
    }

    @Test
    void anInitRequestRefusedForGoodFailsTheStreamOnceWithGladiasWords() throws Exception {
        Heard refused = new Heard();
        SpeechToText.Stream stream = speech.open(gladia("gl-wrong", "en"), AudioFormat.MULAW_8K, refused);
        say(stream, 1, 5);
        await(() -> !refused.events.isEmpty(), "the refused key");
        Thread.sleep(500);
        assertThat(refused.events).containsExactly(
                "failed:Gladia: the session was refused (401: Invalid or missing API key)");
        assertThat(INITS_AT).as("a refused key is not worth another try").hasSize(1);
        assertThat(UPGRADES_AT).isEmpty();

        clear();
        Heard language = new Heard();
        speech.open(gladia(KEY, "xx"), AudioFormat.MULAW_8K, language);
        await(() -> !language.events.isEmpty(), "the refused configuration");
        Thread.sleep(500);
        assertThat(language.events).containsExactly(
                "failed:Gladia: the session was refused (400: language_config.languages.0 must be a valid language)");
        assertThat(INITS_AT).hasSize(1);

        clear();
        INIT_ANSWERS.add(Answer.refuse(503));
        Heard later = new Heard();
        SpeechToText.Stream retried = speech.open(gladia(KEY, "en"), AudioFormat.MULAW_8K, later);
        say(retried, 1, 10);
        say(retried, SILENCE, 16);
        await(() -> later.finals().size() == 1, "heard on the second try");
        assertThat(later.finals()).containsExactly("final:where");
        assertThat(INITS_AT).hasSize(2);
        assertThat((INITS_AT.get(1) - INITS_AT.get(0)) / 1_000_000).as("a backoff").isGreaterThanOrEqualTo(90);
        retried.close();
    }

    @Test
    void initRequestsAndUpgradesThatTimeOutAreTriedAgainAndTheAudioSaidMeanwhileIsHeard() throws Exception {
        INIT_ANSWERS.add(Answer.hang());
        UPGRADE_ANSWERS.add(Answer.hang());
        Heard heard = new Heard();
        GladiaListen stream = listen(heard, Duration.ofMillis(400));
        say(stream, 1, 10);
        await(() -> SESSIONS.size() == 1 && SESSIONS.getFirst().sockets.size() == 1, "connected on the third try");
        say(stream, SILENCE, 16);
        await(() -> heard.finals().size() == 1, "the utterance");
        assertThat(heard.finals()).containsExactly("final:where");
        assertThat(INITS_AT).as("the init request timed out once").hasSize(2);
        assertThat(UPGRADES_AT).as("the upgrade timed out once, the session's URL tried again").hasSize(2);
        await(() -> SESSIONS.getFirst().frames.size() >= 26, "the last of the silence");
        assertThat(SESSIONS.getFirst().frames).isEqualTo(frames(1, 10, SILENCE, 16));
        stream.close();

        clear();
        for (int i = 0; i < 5; i++) {
            INIT_ANSWERS.add(Answer.hang());
        }
        Heard failed = new Heard();
        listen(failed, Duration.ofMillis(400)).audio(new byte[160]);
        await(() -> !failed.events.isEmpty(), "the failure");
        Thread.sleep(600);
        assertThat(failed.events).singleElement().asString().startsWith("failed:Gladia: ");
        assertThat(INITS_AT).as("three tries").hasSize(3);
    }

    @Test
    void theKeyIsCheckedByListingLiveSessionsNoneOpened() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(gladia(KEY, "en")).await().atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(CHECKS).singleElement().satisfies(r -> {
            assertThat(r.query()).isEqualTo("limit=1");
            assertThat(r.getHeader("x-gladia-key")).isEqualTo(KEY);
        });
        assertThat(checks.problem(gladia("gl-wrong", "en")).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Invalid Gladia API key")
                        .contains("401", "Invalid or missing API key"));
        assertThat(INITS_AT).isEmpty();
    }
}
