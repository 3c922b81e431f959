package dev.voiceagent.adapters.outbound.speech;

import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.SILENCE;
import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.WORDS;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A local stand-in for a speech-to-text provider's WebSocket, for the recognizers' tests: it answers each upgrade as
 * told ({@link Handshake}: accepted after a while, refused with a status, or never answered), keeps what each session
 * was asked with and sent, and hands the session to the provider's own conversation. Plain requests (a key check) go
 * to their own handler. The audio the tests say is an oracle: each 20 ms frame's first byte (μ-law) or first sample
 * (16-bit PCM) names the word it carries ({@link SpeechTestKit#WORDS}; {@link SpeechTestKit#SILENCE} none).
 */
final class FakeListenServer {

    /** What the server does with the next upgrade. */
    record Handshake(int status, long delayMs, boolean unanswered) {

        static Handshake accept(long delayMs) {
            return new Handshake(101, delayMs, false);
        }

        static Handshake refuse(int status) {
            return new Handshake(status, 0, false);
        }

        static Handshake hang() {
            return new Handshake(0, 0, true);
        }
    }

    /** One session as the server saw it. */
    static final class Session {
        final ServerWebSocket ws;
        final String path;
        final MultiMap headers;
        final MultiMap params;
        /** "audio" for each audio message, the text of each control message, in order. */
        final List<String> received = new CopyOnWriteArrayList<>();
        /** The word of each 20 ms frame heard, in order. */
        final List<Integer> frames = new CopyOnWriteArrayList<>();
        /** The size of each audio message's audio, in order. */
        final List<Integer> messages = new CopyOnWriteArrayList<>();
        /** Frames before this one are settled (a final covered them). */
        volatile int settled;

        Session(ServerWebSocket ws, String path, MultiMap headers, MultiMap params) {
            this.ws = ws;
            this.path = path;
            this.headers = headers;
            this.params = params;
        }

        /** Records an audio message's frames of {@code frameBytes}, each heard by its first byte or sample. */
        void heard(byte[] audio, int frameBytes) {
            received.add("audio");
            messages.add(audio.length);
            for (int at = 0; at + frameBytes <= audio.length; at += frameBytes) {
                frames.add(frameBytes == 160 ? (int) audio[at] : (audio[at] & 0xFF) | (audio[at + 1] << 8));
            }
        }

        /** The words of the frames not settled yet (consecutive frames of a word are one), settling them. */
        List<String> settle() {
            List<String> said = words(settled);
            settled = frames.size();
            return said;
        }

        /** The words of the frames from {@code from}. */
        List<String> words(int from) {
            List<String> said = new ArrayList<>();
            int previous = -1;
            for (int i = from; i < frames.size(); i++) {
                int word = frames.get(i);
                if (word != SILENCE && word != previous) {
                    said.add(WORDS[word]);
                }
                previous = word;
            }
            return said;
        }
    }

    final Deque<Handshake> handshakes = new ConcurrentLinkedDeque<>();
    final List<Session> sessions = new CopyOnWriteArrayList<>();
    final List<Long> upgradesAt = new CopyOnWriteArrayList<>();
    final List<HttpServerRequest> requests = new CopyOnWriteArrayList<>();
    final String base;
    private final Vertx vertx;

    /**
     * @param refusal the status an upgrade is refused with for its own reasons (a bad key), or null to go on
     * @param plain answers a request that is not an upgrade (a key check)
     * @param serve the provider's side of an accepted session
     */
    FakeListenServer(Vertx vertx, Function<HttpServerRequest, Integer> refusal, Consumer<HttpServerRequest> plain,
            Consumer<Session> serve) throws Exception {
        this.vertx = vertx;
        HttpServer server = vertx.createHttpServer().requestHandler(request -> {
            if (!"websocket".equalsIgnoreCase(request.getHeader("Upgrade"))) {
                requests.add(request);
                plain.accept(request);
                return;
            }
            upgradesAt.add(System.nanoTime());
            Handshake next = handshakes.isEmpty() ? Handshake.accept(0) : handshakes.pollFirst();
            Integer refused = refusal.apply(request);
            if (next.unanswered()) {
                request.pause();
                return; // never answered: the client's time limit runs out
            }
            int status = refused != null ? refused : next.status();
            if (status != 101) {
                request.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                        .end("{\"error\":\"refused with " + status + "\"}");
                return;
            }
            String path = request.path();
            MultiMap headers = MultiMap.caseInsensitiveMultiMap().addAll(request.headers());
            MultiMap params = MultiMap.caseInsensitiveMultiMap().addAll(request.params());
            request.pause();
            vertx.setTimer(Math.max(1, next.delayMs()), t -> request.toWebSocket().onSuccess(ws -> {
                Session session = new Session(ws, path, headers, params);
                sessions.add(session);
                serve.accept(session);
            }));
        });
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        this.base = "http://127.0.0.1:" + server.actualPort();
    }

    String ws() {
        return base.replace("http://", "ws://");
    }

    void clear() {
        handshakes.clear();
        sessions.clear();
        upgradesAt.clear();
        requests.clear();
    }

    /** Milliseconds between the first two upgrades. */
    long secondTryAfterMs() {
        return (upgradesAt.get(1) - upgradesAt.get(0)) / 1_000_000;
    }
}
