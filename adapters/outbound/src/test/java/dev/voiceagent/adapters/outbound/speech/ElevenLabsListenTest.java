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
import java.util.Base64;
import java.util.Collections;
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
 * ElevenLabs' realtime speech-to-text as a call listens with it, against a local server that answers as ElevenLabs
 * does and is an oracle of the audio (each 20 ms frame's first byte names the word it carries, {@link #SILENCE} none):
 * the session asked for in the address (xi-api-key, model, language, the call's audio format, ElevenLabs' voice
 * activity committing, timestamps, the dictionary as keyterms; an organization's base URL), the audio as base64
 * input_audio_chunk messages as the frames come (never committing), a partial for each frame that carries words, a
 * commit (committed_transcript, then its timestamped copy) after the silence ElevenLabs' voice activity waits for, and
 * no other message (no keep-alive, no commit). The faults: a session ended mid-segment by an error message (opened
 * again, the segment's audio sent again, heard once), audio between segments not kept beyond a few seconds, a refused
 * key (401, and an auth_error message), connections that time out; and the key check.
 */
class ElevenLabsListenTest {

    private static final String KEY = "el-key";

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
        final MultiMap params;
        final int frameBytes;
        final int vadFrames;
        final List<Integer> frames = new CopyOnWriteArrayList<>();
        /** Each message as it came (its audio decoded to its size). */
        final List<JsonObject> messages = new CopyOnWriteArrayList<>();
        final List<Integer> sizes = new CopyOnWriteArrayList<>();
        volatile long bytes;
        int segmentFrom;
        int silence;
        boolean speaking;

        Session(ServerWebSocket ws, String path, MultiMap params) {
            this.ws = ws;
            this.path = path;
            this.params = params;
            String format = params.get("audio_format");
            boolean mulaw = format.startsWith("ulaw");
            this.frameBytes = Integer.parseInt(format.substring(format.indexOf('_') + 1)) / 1_000 * 20
                    * (mulaw ? 1 : 2);
            this.vadFrames = (int) Math.round(Double.parseDouble(params.get("vad_silence_threshold_secs")) * 50);
        }
    }

    private static final Deque<Handshake> HANDSHAKES = new ConcurrentLinkedDeque<>();
    private static final List<Session> SESSIONS = new CopyOnWriteArrayList<>();
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
        HttpServer server = vertx.createHttpServer().requestHandler(ElevenLabsListenTest::request);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + server.actualPort();
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(800));
        // the installation's ElevenLabs address under /installation, an organization's base URL at the root
        apis = new ProviderApis(base + "/v1", base, "v", base + "/installation", base, base, "v");
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
    }

    private static void request(HttpServerRequest request) {
        String key = request.getHeader("xi-api-key");
        if (request.path().endsWith("/v1/user")) {
            CHECKS.add(request);
            boolean known = KEY.equals(key);
            request.response().setStatusCode(known ? 200 : 401).putHeader("Content-Type", "application/json")
                    .end(known ? "{\"user_id\":\"u1\"}"
                            : "{\"detail\":{\"status\":\"invalid_api_key\",\"message\":\"Invalid API key\"}}");
            return;
        }
        UPGRADES_AT.add(System.nanoTime());
        Handshake next = HANDSHAKES.isEmpty() ? Handshake.accept(0) : HANDSHAKES.pollFirst();
        request.pause();
        if (next.unanswered()) {
            return; // never answered: the client's time limit runs out
        }
        if (!KEY.equals(key) && !"el-frame".equals(key)) {
            request.response().setStatusCode(401).end("{\"detail\":{\"message\":\"Invalid API key\"}}");
            return;
        }
        String path = request.path();
        MultiMap params = MultiMap.caseInsensitiveMultiMap().addAll(request.params());
        vertx.setTimer(Math.max(1, next.delayMs()), t -> request.toWebSocket()
                .onSuccess(ws -> serve(new Session(ws, path, params), key)));
    }

    private static void serve(Session session, String key) {
        SESSIONS.add(session);
        if ("el-frame".equals(key)) { // the key is refused once the socket is open
            session.ws.writeTextMessage(new JsonObject().put("message_type", "auth_error")
                    .put("error", "You must be authenticated to use this endpoint.").encode());
            session.ws.close((short) 1008, "auth_error");
            return;
        }
        session.ws.writeTextMessage(new JsonObject().put("message_type", "session_started")
                .put("session_id", "s" + SESSIONS.size()).put("config", new JsonObject()
                        .put("audio_format", session.params.get("audio_format"))
                        .put("commit_strategy", session.params.get("commit_strategy"))).encode());
        session.ws.binaryMessageHandler(b -> session.messages.add(new JsonObject().put("binary", b.length())));
        session.ws.textMessageHandler(text -> {
            JsonObject message = new JsonObject(text);
            byte[] audio = Base64.getDecoder().decode(message.getString("audio_base_64", ""));
            session.messages.add(message.put("audio_base_64", audio.length));
            if (!"input_audio_chunk".equals(message.getString("message_type"))) {
                return;
            }
            session.sizes.add(audio.length);
            session.bytes += audio.length;
            boolean spoken = false;
            for (int at = 0; at + session.frameBytes <= audio.length; at += session.frameBytes) {
                int word = audio[at];
                session.frames.add(word);
                if (word != SILENCE) {
                    session.speaking = true;
                    session.silence = 0;
                    spoken = true;
                } else if (session.speaking && ++session.silence >= session.vadFrames) {
                    commit(session);
                }
            }
            List<String> words = words(session, session.segmentFrom, session.frames.size());
            if (spoken && !words.isEmpty()) {
                session.ws.writeTextMessage(new JsonObject().put("message_type", "partial_transcript")
                        .put("text", String.join(" ", words)).encode());
            }
        });
    }

    /** ElevenLabs' voice activity heard the silence: the segment's commit, then its timestamped copy. */
    private static void commit(Session session) {
        int from = session.segmentFrom;
        int to = session.frames.size();
        List<String> words = words(session, from, to);
        String text = words.isEmpty() ? "" : String.join(" ", words) + ".";
        session.ws.writeTextMessage(new JsonObject().put("message_type", "committed_transcript").put("text", text)
                .encode());
        JsonArray timed = new JsonArray();
        int previous = -1;
        for (int i = from; i < to; i++) {
            int word = session.frames.get(i);
            if (word != SILENCE && word == previous) {
                timed.getJsonObject(timed.size() - 1).put("end", (i + 1) * 0.02);
            } else if (word != SILENCE) {
                if (!timed.isEmpty()) {
                    timed.add(new JsonObject().put("text", " ").put("type", "spacing").put("start", i * 0.02)
                            .put("end", i * 0.02));
                }
                timed.add(new JsonObject().put("text", WORDS[word]).put("type", "word").put("start", i * 0.02)
                        .put("end", (i + 1) * 0.02));
            }
            previous = word;
        }
        session.ws.writeTextMessage(new JsonObject().put("message_type", "committed_transcript_with_timestamps")
                .put("text", text).put("language_code", "en").put("words", timed).encode());
        session.segmentFrom = to;
        session.speaking = false;
        session.silence = 0;
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

    private static ElevenLabsListen listen(Heard heard, String key, Duration timeout) {
        String url = base.replace("http://", "ws://") + ElevenLabsListen.query("scribe_v2_realtime", "en",
                AudioFormat.MULAW_8K, List.of());
        return new ElevenLabsListen(() -> http.webSocket(url, Map.of("xi-api-key", key), timeout, true), vertx,
                new RetryBudget(3, Duration.ofMillis(200), Duration.ofSeconds(2)), AudioFormat.MULAW_8K, heard);
    }

    private static ElevenLabsListen listen(Heard heard) {
        return listen(heard, KEY, Duration.ofMillis(800));
    }

    private static ModelEndpoint elevenlabs(String key, String language, String baseUrl) {
        return new ModelEndpoint(ModelService.STT, "elevenlabs", "scribe_v2_realtime", baseUrl, List.of(key),
                Map.of("provider", "elevenlabs", "model", "scribe_v2_realtime", "language", language), false);
    }

    private static List<Integer> frames(int... runs) {
        List<Integer> frames = new ArrayList<>();
        for (int i = 0; i < runs.length; i += 2) {
            frames.addAll(Collections.nCopies(runs[i + 1], runs[i]));
        }
        return frames;
    }

    @Test
    void theSessionIsAskedForInItsAddressAndTheAudioGoesAsBase64ChunksAsTheFramesCome() throws Exception {
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(elevenlabs(KEY, "en", null).withKeyterms(List.of("Acme Pay",
                " Zyrtec ", "Acme Pay")), AudioFormat.MULAW_8K, heard);
        await(() -> SESSIONS.size() == 1, "the session");
        Session session = SESSIONS.getFirst();
        assertThat(session.path).as("the installation's address").isEqualTo(
                "/installation/v1/speech-to-text/realtime");
        assertThat(session.params.get("model_id")).isEqualTo("scribe_v2_realtime");
        assertThat(session.params.get("language_code")).isEqualTo("en");
        assertThat(session.params.get("audio_format")).as("the phone's μ-law as it is").isEqualTo("ulaw_8000");
        assertThat(session.params.get("commit_strategy")).isEqualTo("vad");
        assertThat(session.params.get("vad_silence_threshold_secs")).isEqualTo("0.5");
        assertThat(session.params.get("include_timestamps")).isEqualTo("true");
        assertThat(session.params.getAll("keyterms")).containsExactly("Acme Pay", "Zyrtec");

        say(stream, 1, 10);
        await(() -> heard.events.contains("interim:where"), "the partial");
        say(stream, SILENCE, 26); // ElevenLabs' voice activity commits the segment
        await(() -> heard.finals().size() == 1, "the commit");
        stream.finalizeNow(); // nothing open: nothing more is coming, at once
        await(() -> heard.finals().size() == 2, "the empty final");

        say(stream, 2, 10);
        await(() -> heard.events.contains("interim:is"), "the next partial");
        stream.finalizeNow(); // a segment is open: its commit answers
        Thread.sleep(100);
        assertThat(heard.finals()).hasSize(2);
        say(stream, SILENCE, 26);
        await(() -> heard.finals().size() == 3, "the segment's commit");
        Thread.sleep(100);
        assertThat(heard.finals()).containsExactly("final:where.", "final:", "final:is.");

        assertThat(session.messages).as("every message an audio chunk of one 20 ms frame, never a commit")
                .hasSize(72).allSatisfy(m -> {
                    assertThat(m.getString("message_type")).isEqualTo("input_audio_chunk");
                    assertThat(m.getBoolean("commit")).isFalse();
                    assertThat(m.getInteger("sample_rate")).isEqualTo(8000);
                    assertThat(m.getInteger("audio_base_64")).isEqualTo(160);
                });
        stream.close();
        await(session.ws::isClosed, "the socket closed at the end");
        assertThat(session.messages).hasSize(72);
        assertThat(stream.seconds()).isEqualTo(1.44);
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));

        speech.open(elevenlabs(KEY, "auto", base), AudioFormat.PCM_16K, new Heard()).close();
        await(() -> SESSIONS.size() == 2, "the browser's session");
        Session browser = SESSIONS.get(1);
        assertThat(browser.path).as("the organization's base URL").isEqualTo("/v1/speech-to-text/realtime");
        assertThat(browser.params.get("audio_format")).isEqualTo("pcm_16000");
        assertThat(browser.params.contains("language_code")).as("auto: ElevenLabs detects it").isFalse();
        assertThat(browser.params.contains("keyterms")).isFalse();

        SpeechToText.Stream wide = speech.open(elevenlabs(KEY, "en", null),
                new AudioFormat(AudioFormat.Encoding.PCM16LE, 32_000), new Heard());
        await(() -> SESSIONS.size() == 3, "a 32 kHz call's session");
        assertThat(SESSIONS.get(2).params.get("audio_format")).as("a rate ElevenLabs does not take: 16 kHz")
                .isEqualTo("pcm_16000");
        for (int i = 0; i < 10; i++) {
            wide.audio(new byte[1_280]);
        }
        await(() -> SESSIONS.get(2).bytes >= 6_000, "the resampled audio");
        assertThat(SESSIONS.get(2).bytes).as("half the samples").isLessThanOrEqualTo(6_400);
        wide.close();
    }

    @Test
    void aSessionEndedMidSegmentByAnErrorIsOpenedAgainAndTheSegmentIsHeardOnce() throws Exception {
        Heard heard = new Heard();
        ElevenLabsListen stream = listen(heard);
        await(() -> SESSIONS.size() == 1, "the first session");
        say(stream, 0, 10);
        say(stream, SILENCE, 26);
        await(() -> heard.finals().contains("final:hello."), "the first segment");

        say(stream, 1, 10); // "where" reaches the first session, then ElevenLabs fails it
        await(() -> heard.events.contains("interim:where"), "the segment's start");
        HANDSHAKES.add(Handshake.accept(300)); // the new session takes a while: the gap
        SESSIONS.getFirst().ws.writeTextMessage(new JsonObject().put("message_type", "transcriber_error")
                .put("error", "Internal transcriber error").encode());
        await(() -> UPGRADES_AT.size() == 2, "opened again at once");
        say(stream, 2, 10); // "is": said during the gap
        await(() -> SESSIONS.size() == 2, "the second session");
        say(stream, 3, 10); // "my": on the new session
        say(stream, SILENCE, 26);
        await(() -> heard.finals().size() == 2, "the segment across the error");

        assertThat(heard.finals()).containsExactly("final:hello.", "final:where is my.");
        assertThat(SESSIONS.getFirst().ws.isClosed()).isTrue();
        assertThat(SESSIONS.get(1).frames).as("the silence after the commit, the segment, the gap, the rest; not"
                + " the committed word").isEqualTo(frames(SILENCE, 26, 1, 10, 2, 10, 3, 10, SILENCE, 26));
        assertThat(stream.seconds()).as("the caller's audio counted once").isEqualTo(1.84);
        stream.close();
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
    }

    @Test
    void betweenSegmentsOnlyTheLastSecondsAreSentAgain() throws Exception {
        Heard heard = new Heard();
        ElevenLabsListen stream = listen(heard);
        await(() -> SESSIONS.size() == 1, "the first session");
        say(stream, 0, 10);
        say(stream, SILENCE, 250); // five seconds without a word while the agent speaks
        await(() -> SESSIONS.getFirst().frames.size() == 260, "the silence heard");
        SESSIONS.getFirst().ws.close((short) 1011, "internal error");
        await(() -> SESSIONS.size() == 2, "the second session");
        Thread.sleep(200);
        assertThat(SESSIONS.get(1).frames).as("the last " + ElevenLabsListen.IDLE_MS + " ms, not five seconds")
                .hasSize(ElevenLabsListen.IDLE_MS / 20).containsOnly(SILENCE);
        assertThat(heard.finals()).containsExactly("final:hello.");
        stream.close();
    }

    @Test
    void aRefusedKeyFailsTheStreamOnceWithElevenLabsWordsAndIsNotTriedAgain() throws Exception {
        Heard refused = new Heard();
        SpeechToText.Stream stream = speech.open(elevenlabs("el-wrong", "en", null), AudioFormat.MULAW_8K, refused);
        say(stream, 1, 5);
        await(() -> !refused.events.isEmpty(), "the refused upgrade");
        Thread.sleep(500);
        assertThat(refused.events).singleElement().asString().startsWith("failed:ElevenLabs").contains("401");
        assertThat(UPGRADES_AT).as("a refused key is not worth another try").hasSize(1);

        clear();
        Heard frame = new Heard();
        speech.open(elevenlabs("el-frame", "en", null), AudioFormat.MULAW_8K, frame);
        await(() -> !frame.events.isEmpty(), "the auth_error message");
        Thread.sleep(500);
        assertThat(frame.events).containsExactly(
                "failed:ElevenLabs: You must be authenticated to use this endpoint. (auth_error)");
        assertThat(UPGRADES_AT).hasSize(1);
    }

    @Test
    void aConnectionThatTimesOutIsTriedAgainAndTheAudioSaidMeanwhileIsHeard() throws Exception {
        HANDSHAKES.add(Handshake.hang());
        Heard heard = new Heard();
        ElevenLabsListen stream = listen(heard, KEY, Duration.ofMillis(400));
        say(stream, 1, 10);
        await(() -> SESSIONS.size() == 1, "connected on the second try");
        say(stream, SILENCE, 26);
        await(() -> heard.finals().size() == 1, "the segment");
        assertThat(heard.finals()).containsExactly("final:where.");
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
        assertThat(failed.events).singleElement().asString().startsWith("failed:ElevenLabs: Could not reach");
        assertThat(UPGRADES_AT).as("three tries").hasSize(3);
    }

    @Test
    void theKeyIsCheckedAsForItsVoicesWithTheUserEndpoint() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(elevenlabs(KEY, "en", null)).await().atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(CHECKS).singleElement().satisfies(r -> {
            assertThat(r.path()).isEqualTo("/installation/v1/user");
            assertThat(r.getHeader("xi-api-key")).isEqualTo(KEY);
        });
        assertThat(checks.problem(elevenlabs("el-wrong", "en", null)).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Invalid ElevenLabs API key")
                        .contains("401"));
        assertThat(UPGRADES_AT).isEmpty();
    }
}
