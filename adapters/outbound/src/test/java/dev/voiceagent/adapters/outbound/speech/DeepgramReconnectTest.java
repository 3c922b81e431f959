package dev.voiceagent.adapters.outbound.speech;

import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.WORDS;
import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
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
 * Deepgram's live socket survives its connection. A local server speaks Deepgram's protocol as an oracle of the
 * audio (each 20 ms frame's first byte names the word it carries; a Finalize settles the words heard since the last
 * final, with the final's start and duration on the socket's audio), and injects the faults: a socket closed in the
 * middle of a line, an upgrade refused with 503, with 429 and Retry-After: 1, with 401, every time.
 */
class DeepgramReconnectTest {

    /** What the server does with the next upgrade. */
    record Handshake(int status, String retryAfter, long delayMs) {

        static Handshake accept(long delayMs) {
            return new Handshake(101, null, delayMs);
        }

        static Handshake refuse(int status, String retryAfter) {
            return new Handshake(status, retryAfter, 0);
        }
    }

    /**
     * One socket as the server saw it: the words of its frames in order (a binary message holds whole 160-byte frames),
     * its controls, every message in order (a binary one as its size), when it opened.
     */
    static final class Socket {
        final ServerWebSocket ws;
        final List<Integer> frames = new CopyOnWriteArrayList<>();
        final List<String> controls = new CopyOnWriteArrayList<>();
        final List<String> messages = new CopyOnWriteArrayList<>();
        final long openedAt = System.nanoTime();
        int settledFrames;
        int turn;

        Socket(ServerWebSocket ws) {
            this.ws = ws;
        }
    }

    private static final Deque<Handshake> HANDSHAKES = new ConcurrentLinkedDeque<>();
    private static final List<Socket> SOCKETS = new CopyOnWriteArrayList<>();
    private static final List<Long> UPGRADES_AT = new CopyOnWriteArrayList<>();
    private static Vertx vertx;
    private static HttpServer server;
    private static GuardedHttp http;
    private static String base;
    private static SpeechProviders speech;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(DeepgramReconnectTest::upgrade);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + server.actualPort();
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(800));
        speech = new SpeechProviders(http, new ProviderApis(base + "/v1", base, "v", base, base, base, "v"),
                vertx, Duration.ofMillis(800), 3, Duration.ofMillis(200), Duration.ofSeconds(2));
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        HANDSHAKES.clear();
        SOCKETS.clear();
        UPGRADES_AT.clear();
    }

    private static void upgrade(HttpServerRequest request) {
        UPGRADES_AT.add(System.nanoTime());
        Handshake next = HANDSHAKES.isEmpty() ? Handshake.accept(0) : HANDSHAKES.pollFirst();
        if (!"Token dg-key".equals(request.getHeader("Authorization"))) {
            next = Handshake.refuse(401, null);
        }
        if (next.status() != 101) {
            if (next.retryAfter() != null) {
                request.response().putHeader("Retry-After", next.retryAfter());
            }
            request.response().setStatusCode(next.status()).end("{\"err_code\":\"refused\"}");
            return;
        }
        boolean flux = request.path().equals("/v2/listen");
        request.pause();
        vertx.setTimer(Math.max(1, next.delayMs()), t -> request.toWebSocket()
                .onSuccess(ws -> serve(new Socket(ws), flux)));
    }

    /** Deepgram (or Flux) as an oracle of the frames: a Finalize (ForceEndTurn) settles the words heard since. */
    private static void serve(Socket socket, boolean flux) {
        SOCKETS.add(socket);
        socket.ws.binaryMessageHandler(message -> {
            socket.messages.add("audio:" + message.length());
            for (int at = 0; at < message.length(); at += 160) {
                socket.frames.add((int) message.getByte(at));
            }
        });
        socket.ws.textMessageHandler(text -> {
            String type = new JsonObject(text).getString("type");
            socket.controls.add(type);
            socket.messages.add(type);
            if (!"Finalize".equals(type) && !"ForceEndTurn".equals(type)) {
                return;
            }
            List<String> said = new ArrayList<>();
            int previous = -1;
            for (int i = socket.settledFrames; i < socket.frames.size(); i++) {
                int word = socket.frames.get(i);
                if (word != previous) {
                    said.add(WORDS[word]);
                }
                previous = word;
            }
            double start = socket.settledFrames * 0.02;
            socket.settledFrames = socket.frames.size();
            double end = socket.settledFrames * 0.02;
            String transcript = String.join(" ", said);
            socket.ws.writeTextMessage(flux
                    ? new JsonObject().put("type", "TurnInfo").put("event", "EndOfTurn").put("turn_index", socket.turn++)
                            .put("transcript", transcript).put("audio_window_start", start)
                            .put("audio_window_end", end).encode()
                    : new JsonObject().put("type", "Results").put("is_final", true).put("from_finalize", true)
                            .put("start", start).put("duration", end - start).put("channel", new JsonObject()
                                    .put("alternatives", new JsonArray().add(new JsonObject()
                                            .put("transcript", transcript)))).encode());
        });
    }

    private static void say(SpeechToText.Stream stream, int word, int frames) throws InterruptedException {
        for (int i = 0; i < frames; i++) {
            byte[] frame = new byte[160];
            frame[0] = (byte) word;
            stream.audio(frame);
            Thread.sleep(5);
        }
    }

    private static DeepgramListen listen(Heard heard, boolean flux, long keepAliveMs) {
        String url = base.replace("http://", "ws://") + (flux
                ? DeepgramListen.fluxQuery("flux-general-en", "en", AudioFormat.MULAW_8K)
                : DeepgramListen.query("nova-3-general", "en", AudioFormat.MULAW_8K));
        return new DeepgramListen(() -> http.webSocket(url, Map.of("Authorization", "Token dg-key"),
                Duration.ofMillis(800), true), vertx, new RetryBudget(3, Duration.ofMillis(200), Duration.ofSeconds(2)),
                AudioFormat.MULAW_8K, heard, flux, keepAliveMs);
    }

    private static ModelEndpoint deepgram(String key) {
        return new ModelEndpoint(ModelService.STT, "deepgram", "nova-3-general", null, List.of(key),
                Map.of("provider", "deepgram", "model", "nova-3-general", "language", "en"), false);
    }

    @Test
    void aSocketClosedMidLineIsOpenedAgainAndTheLineIsHeardOnceWithTheGapsAudio() throws Exception {
        Heard heard = new Heard();
        DeepgramListen stream = listen(heard, false, 150);
        await(() -> SOCKETS.size() == 1, "the first socket");
        say(stream, 0, 10); // "hello", settled before the drop
        stream.finalizeNow();
        await(() -> heard.finals().contains("final:hello"), "the first line");

        say(stream, 1, 10); // "where" reaches the first socket, then it is closed mid-line
        await(() -> SOCKETS.getFirst().frames.size() == 20, "the line's start at the first socket");
        HANDSHAKES.add(Handshake.accept(300)); // the new socket takes a while: the gap
        SOCKETS.getFirst().ws.close((short) 1011, "internal error");
        await(() -> UPGRADES_AT.size() == 2, "opened again at once");
        say(stream, 2, 10); // "is": said during the gap
        await(() -> SOCKETS.size() == 2, "the second socket");
        say(stream, 3, 10); // "my": on the new socket
        stream.finalizeNow();
        await(() -> heard.finals().size() == 2, "the line across the drop");

        assertThat(heard.finals()).containsExactly("final:hello", "final:where is my");
        Socket second = SOCKETS.get(1);
        assertThat(second.frames).as("the unsettled line first, then the gap's audio, then the rest; no settled audio")
                .startsWith(1, 1, 1).doesNotContain(0).hasSize(30).endsWith(3);
        assertThat(second.frames.indexOf(2)).isEqualTo(10);
        await(() -> second.controls.stream().filter("KeepAlive"::equals).count() >= 2,
                "KeepAlive goes on on the new socket");
        assertThat(stream.seconds()).as("the caller's audio counted once").isEqualTo(0.8);

        stream.close();
        await(() -> second.controls.contains("CloseStream"), "CloseStream on the open socket");
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
    }

    @Test
    void anEmptyFinalAnsweringAFinalizeIsHeardSoTheTurnNeedNotWait() throws Exception {
        Heard heard = new Heard();
        DeepgramListen stream = listen(heard, false, 4_000);
        await(() -> SOCKETS.size() == 1, "the socket");
        say(stream, 1, 10);
        stream.finalizeNow();
        await(() -> heard.finals().contains("final:where"), "the line");
        stream.finalizeNow(); // nothing said since: Deepgram answers with an empty final
        await(() -> heard.finals().size() == 2, "the empty final");
        assertThat(heard.finals()).containsExactly("final:where", "final:");
        stream.close();
    }

    @Test
    void theAudioGoesInMessagesOfTwoFramesAndWhatIsPendingBeforeTheFinalizeAndTheClose() throws Exception {
        Heard heard = new Heard();
        DeepgramListen stream = listen(heard, false, 4_000);
        await(() -> SOCKETS.size() == 1, "the socket");
        say(stream, 1, 5);
        await(() -> SOCKETS.getFirst().messages.size() == 2, "two messages of two frames");
        Thread.sleep(100);
        assertThat(SOCKETS.getFirst().messages).as("the fifth frame waits for the sixth").containsExactly(
                "audio:320", "audio:320");
        stream.finalizeNow();
        await(() -> heard.finals().contains("final:where"), "the line, its last frame included");
        assertThat(SOCKETS.getFirst().messages).containsExactly("audio:320", "audio:320", "audio:160", "Finalize");
        assertThat(SOCKETS.getFirst().frames).hasSize(5);

        say(stream, 4, 3);
        stream.close();
        await(() -> SOCKETS.getFirst().controls.contains("CloseStream"), "CloseStream");
        assertThat(SOCKETS.getFirst().messages.subList(4, SOCKETS.getFirst().messages.size()))
                .as("the last frame sent before CloseStream").containsExactly("audio:320", "audio:160", "CloseStream");
        assertThat(stream.seconds()).as("the caller's audio counted as it came").isEqualTo(0.16);
    }

    @Test
    void aFinalizeWhoseFinalWasLostInTheDropIsAskedAgainAfterTheLinesAudio() throws Exception {
        Heard heard = new Heard();
        DeepgramListen stream = listen(heard, false, 4_000);
        await(() -> SOCKETS.size() == 1, "the first socket");
        say(stream, 4, 10);
        await(() -> SOCKETS.getFirst().frames.size() == 10, "the line at the first socket");
        SOCKETS.getFirst().ws.textMessageHandler(text -> SOCKETS.getFirst().controls.add(text)); // deaf from now on
        stream.finalizeNow();
        await(() -> SOCKETS.getFirst().controls.size() == 1, "the Finalize reached the socket");
        SOCKETS.getFirst().ws.close((short) 1006, "gone");
        await(() -> heard.finals().size() == 1, "the line on the new socket");
        assertThat(heard.finals()).containsExactly("final:order");
        assertThat(SOCKETS.get(1).frames).hasSize(10).containsOnly(4);
        assertThat(SOCKETS.get(1).controls).containsExactly("Finalize");
        stream.close();
    }

    @Test
    void aFluxTurnInProgressWhenTheSocketDropsIsHeardWholeOnTheNewSocket() throws Exception {
        Heard heard = new Heard();
        DeepgramListen stream = listen(heard, true, 4_000);
        await(() -> SOCKETS.size() == 1, "the first socket");
        say(stream, 0, 10);
        stream.finalizeNow();
        await(() -> heard.finals().contains("final:hello"), "the first turn");
        say(stream, 1, 10);
        await(() -> SOCKETS.getFirst().frames.size() == 20, "the turn's start at the first socket");
        SOCKETS.getFirst().ws.close((short) 1011, "internal error");
        await(() -> SOCKETS.size() == 2, "the second socket");
        say(stream, 2, 5);
        stream.finalizeNow();
        await(() -> heard.finals().size() == 2, "the turn across the drop");
        assertThat(heard.finals()).containsExactly("final:hello", "final:where is");
        assertThat(SOCKETS.get(1).frames).doesNotContain(0).hasSize(15);
        assertThat(SOCKETS.get(1).controls).containsExactly("ForceEndTurn").doesNotContain("KeepAlive");
        stream.close();
    }

    @Test
    void aFirstConnectionRefusedWith503IsTriedAgainAndTheAudioSaidMeanwhileIsHeard() throws Exception {
        HANDSHAKES.add(Handshake.refuse(503, null));
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(deepgram("dg-key"), AudioFormat.MULAW_8K, heard);
        say(stream, 1, 5);
        stream.finalizeNow();
        await(() -> heard.finals().contains("final:where"), "heard on the second try");
        assertThat(UPGRADES_AT).hasSize(2);
        assertThat((UPGRADES_AT.get(1) - UPGRADES_AT.get(0)) / 1_000_000).as("a backoff").isGreaterThanOrEqualTo(90);
        assertThat(SOCKETS.getFirst().frames).hasSize(5);
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
        stream.close();
    }

    @Test
    void aRateLimitsRetryAfterIsWaited() throws Exception {
        HANDSHAKES.add(Handshake.refuse(429, "1"));
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(deepgram("dg-key"), AudioFormat.MULAW_8K, heard);
        await(() -> SOCKETS.size() == 1, "connected on the second try");
        assertThat((UPGRADES_AT.get(1) - UPGRADES_AT.get(0)) / 1_000_000).as("Retry-After: 1")
                .isGreaterThanOrEqualTo(990);
        assertThat(heard.events).isEmpty();
        stream.close();
    }

    @Test
    void aSpentBudgetOrARefusedKeyFailsTheListenerOnce() throws Exception {
        for (int i = 0; i < 10; i++) {
            HANDSHAKES.add(Handshake.refuse(503, null));
        }
        Heard heard = new Heard();
        speech.open(deepgram("dg-key"), AudioFormat.MULAW_8K, heard).audio(new byte[160]);
        await(() -> !heard.events.isEmpty(), "the failure");
        Thread.sleep(1_000);
        assertThat(heard.events).singleElement().asString().startsWith("failed:Deepgram").contains("503");
        assertThat(UPGRADES_AT).as("three tries").hasSize(3);

        clear();
        Heard refused = new Heard();
        speech.open(deepgram("wrong-key"), AudioFormat.MULAW_8K, refused);
        await(() -> !refused.events.isEmpty(), "the refusal");
        Thread.sleep(500);
        assertThat(refused.events).singleElement().asString().startsWith("failed:Deepgram").contains("401");
        assertThat(UPGRADES_AT).as("a refused key is not worth another try").hasSize(1);
    }
}
