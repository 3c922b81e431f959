package dev.voiceagent.adapters.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.conversation.ModelDelta;
import dev.voiceagent.application.conversation.ModelStreamBrokenException;
import dev.voiceagent.application.conversation.ModelUnavailableException;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.domain.conversation.ChatMessage;
import dev.voiceagent.domain.conversation.ModelReply;
import dev.voiceagent.domain.conversation.ModelRequest;
import dev.voiceagent.domain.model.ModelService;
import io.smallrye.mutiny.Multi;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A model that fails once before its answer is asked again and the same turn is answered; one that fails after some
 * of its answer is not. Against a local server speaking OpenAI's streamed chat completions, each request answered as
 * scripted: a 500, a 429 with Retry-After: 1, a connection closed before any answer, no first byte, a stream cut after
 * its first words, an outage that lasts; and a port nobody listens on until the first try was refused.
 */
class ChatCompletionsFaultsTest {

    /** One request as the server saw it. */
    record Seen(String authorization, long atMs) {
    }

    private static final Deque<Consumer<HttpServerRequest>> SCRIPT = new ConcurrentLinkedDeque<>();
    private static final List<Seen> SEEN = new CopyOnWriteArrayList<>();
    private static Vertx vertx;
    private static HttpServer server;
    private static String base;
    private static ChatCompletions chat;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(ChatCompletionsFaultsTest::serve);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + server.actualPort();
        GuardedHttp http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofSeconds(2));
        ProviderApis apis = new ProviderApis(base + "/v1", base + "/google", "2024-10-21", base, base, base, "v");
        chat = new ChatCompletions(http, apis, Duration.ofSeconds(2), Duration.ofMillis(400), 3, Duration.ofMillis(300),
                Duration.ofSeconds(2));
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        SCRIPT.clear();
        SEEN.clear();
    }

    private static final long T0 = System.nanoTime();

    private static void serve(HttpServerRequest request) {
        request.body().onSuccess(body -> {
            SEEN.add(new Seen(request.getHeader("Authorization"), (System.nanoTime() - T0) / 1_000_000));
            Consumer<HttpServerRequest> next = SCRIPT.pollFirst();
            (next == null ? answers("Hello there.") : next).accept(request);
        });
    }

    private static String event(JsonObject delta) {
        return "data: " + new JsonObject().put("choices", new JsonArray().add(new JsonObject().put("index", 0)
                .put("delta", delta))).encode() + "\n\n";
    }

    /** The answer streamed word by word, the usage, [DONE]. */
    private static Consumer<HttpServerRequest> answers(String text) {
        return request -> {
            var response = request.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
            String[] words = text.split(" ");
            for (int i = 0; i < words.length; i++) {
                response.write(event(new JsonObject().put("content", (i == 0 ? "" : " ") + words[i])));
            }
            response.write("data: " + new JsonObject().put("choices", new JsonArray()).put("usage", new JsonObject()
                    .put("prompt_tokens", 12).put("completion_tokens", 3).put("total_tokens", 15)).encode() + "\n\n");
            response.end("data: [DONE]\n\n");
        };
    }

    private static Consumer<HttpServerRequest> refuses(int status, String retryAfter) {
        return request -> {
            if (retryAfter != null) {
                request.response().putHeader("Retry-After", retryAfter);
            }
            request.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                    .end("{\"error\": {\"message\": \"try later (" + status + ")\"}}");
        };
    }

    private static Consumer<HttpServerRequest> hangsUp() {
        return request -> request.connection().close();
    }

    private static Consumer<HttpServerRequest> silent() {
        return request -> {
            // no head, no byte: the client's first-byte limit ends the wait
        };
    }

    /** Its first words, then the connection is cut. */
    private static Consumer<HttpServerRequest> breaksAfter(String words) {
        return request -> {
            var response = request.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
            response.write(event(new JsonObject().put("content", words)));
            vertx.setTimer(100, t -> request.connection().close());
        };
    }

    private static ModelEndpoint endpoint(String baseUrl, List<String> keys) {
        return new ModelEndpoint(ModelService.LLM, "openai", "gpt-4.1-mini", baseUrl, keys, Map.of(), false);
    }

    private static ModelRequest request() {
        return new ModelRequest(List.of(ChatMessage.system("Be brief."), ChatMessage.user("Where is my order?")),
                List.of());
    }

    /** What a stream gave: its deltas in order, then how it ended (null: completed). */
    static final class Heard {
        final List<ModelDelta> deltas = new CopyOnWriteArrayList<>();
        final CompletableFuture<Throwable> ended = new CompletableFuture<>();
        final CountDownLatch retrying = new CountDownLatch(1);

        Heard(Multi<ModelDelta> stream) {
            stream.subscribe().with(delta -> {
                deltas.add(delta);
                if (delta instanceof ModelDelta.Retrying) {
                    retrying.countDown();
                }
            }, ended::complete, () -> ended.complete(null));
        }

        Throwable end() throws Exception {
            return ended.get(10, TimeUnit.SECONDS);
        }

        List<ModelDelta.Retrying> retries() {
            return deltas.stream().filter(d -> d instanceof ModelDelta.Retrying).map(d -> (ModelDelta.Retrying) d)
                    .toList();
        }

        String text() {
            StringBuilder text = new StringBuilder();
            deltas.stream().filter(d -> d instanceof ModelDelta.Text).forEach(d -> text.append(((ModelDelta.Text) d)
                    .delta()));
            return text.toString();
        }

        ModelReply reply() {
            assertThat(deltas.getLast()).isInstanceOf(ModelDelta.Done.class);
            return ((ModelDelta.Done) deltas.getLast()).reply();
        }
    }

    private static void answeredAfterOneRetry(Heard heard) throws Exception {
        assertThat(heard.end()).isNull();
        assertThat(heard.deltas.getFirst()).as("the retry is said before any text").isInstanceOf(
                ModelDelta.Retrying.class);
        assertThat(heard.retries()).singleElement().satisfies(r -> assertThat(r.attempt()).isEqualTo(2));
        assertThat(heard.text()).isEqualTo("Hello there.");
        assertThat(heard.reply().text()).isEqualTo("Hello there.");
        assertThat(heard.reply().usage().totalTokens()).isEqualTo(15);
    }

    @Test
    void aServerErrorBeforeTheAnswerIsAskedAgainWithTheNextKeyAndTheSameTurnIsAnswered() throws Exception {
        SCRIPT.add(refuses(500, null));
        Heard heard = new Heard(chat.stream(endpoint(null, List.of("k-1", "k-2")), request()));
        answeredAfterOneRetry(heard);
        ModelDelta.Retrying retry = heard.retries().getFirst();
        assertThat(retry.reason()).contains("answered 500", "try later (500)");
        assertThat(retry.after()).isBetween(Duration.ofMillis(150), Duration.ofMillis(300));
        assertThat(SEEN).hasSize(2);
        assertThat(SEEN.get(0).authorization()).isNotEqualTo(SEEN.get(1).authorization());
        assertThat(SEEN.get(1).atMs() - SEEN.get(0).atMs()).as("the backoff was waited").isGreaterThanOrEqualTo(140);
    }

    @Test
    void aRateLimitsRetryAfterIsWaitedBeforeTheNextTry() throws Exception {
        SCRIPT.add(refuses(429, "1"));
        Heard heard = new Heard(chat.stream(endpoint(null, List.of("k")), request()));
        answeredAfterOneRetry(heard);
        assertThat(heard.retries().getFirst().after()).isEqualTo(Duration.ofSeconds(1));
        assertThat(SEEN.get(1).atMs() - SEEN.get(0).atMs()).as("Retry-After: 1").isGreaterThanOrEqualTo(990);
    }

    @Test
    void aConnectionClosedBeforeAnyAnswerIsAskedAgain() throws Exception {
        SCRIPT.add(hangsUp());
        Heard heard = new Heard(chat.stream(endpoint(null, List.of("k")), request()));
        answeredAfterOneRetry(heard);
        assertThat(SEEN).hasSize(2);
    }

    @Test
    void aModelThatSendsNothingWithinTheFirstByteLimitIsResetAndAskedAgain() throws Exception {
        SCRIPT.add(silent());
        Heard heard = new Heard(chat.stream(endpoint(null, List.of("k")), request()));
        answeredAfterOneRetry(heard);
        assertThat(heard.retries().getFirst().reason()).contains("nothing within 400 ms");
        assertThat(SEEN.get(1).atMs() - SEEN.get(0).atMs()).isGreaterThanOrEqualTo(400 + 140);
    }

    @Test
    void aConnectionRefusedIsAskedAgainAndAnsweredOnceTheServerListens() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Heard heard = new Heard(chat.stream(endpoint("http://127.0.0.1:" + port + "/v1", List.of("k")), request()));
        assertThat(heard.retrying.await(5, TimeUnit.SECONDS)).as("the refusal was seen").isTrue();
        HttpServer late = vertx.createHttpServer().requestHandler(ChatCompletionsFaultsTest::serve);
        late.listen(port, "127.0.0.1").toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        try {
            answeredAfterOneRetry(heard);
            assertThat(heard.retries().getFirst().reason()).contains("127.0.0.1");
            assertThat(SEEN).as("only the second try reached a server").hasSize(1);
        } finally {
            late.close();
        }
    }

    @Test
    void aStreamBrokenAfterItsFirstWordsIsNotAskedAgainAndSaysWhatItGave() throws Exception {
        SCRIPT.add(breaksAfter("Your order"));
        Heard heard = new Heard(chat.stream(endpoint(null, List.of("k")), request()));
        Throwable failure = heard.end();
        assertThat(failure).isInstanceOf(ModelStreamBrokenException.class)
                .hasMessageStartingWith("The language model failed: ").hasMessageContaining("broke");
        assertThat(((ModelStreamBrokenException) failure).produced()).isEqualTo("Your order");
        assertThat(heard.deltas).containsExactly(new ModelDelta.Text("Your order"));
        Thread.sleep(400);
        assertThat(SEEN).as("never asked again").hasSize(1);
    }

    @Test
    void anOutageThatOutlastsTheBudgetFailsOnceWithTheProvidersMessage() throws Exception {
        for (int i = 0; i < 5; i++) {
            SCRIPT.add(refuses(503, null));
        }
        Heard heard = new Heard(chat.stream(endpoint(null, List.of("k")), request()));
        Throwable failure = heard.end();
        assertThat(failure).isInstanceOf(ModelUnavailableException.class)
                .hasMessage("The language model failed: OpenAI answered 503: try later (503)");
        assertThat(((ModelUnavailableException) failure).attempts()).isEqualTo(3);
        assertThat(heard.retries()).extracting(ModelDelta.Retrying::attempt).containsExactly(2, 3);
        assertThat(heard.deltas).hasSize(2);
        assertThat(SEEN).hasSize(3);
    }

    @Test
    void aRefusalIsNotAskedAgainAndARetryAfterBeyondTheBudgetEndsTheTriesAtOnce() throws Exception {
        SCRIPT.add(refuses(401, null));
        Heard refused = new Heard(chat.stream(endpoint(null, List.of("k")), request()));
        assertThat(refused.end()).isInstanceOf(ModelUnavailableException.class).hasMessageContaining("401");
        assertThat(refused.deltas).isEmpty();
        assertThat(SEEN).hasSize(1);

        clear();
        SCRIPT.add(refuses(429, "30"));
        Heard later = new Heard(chat.stream(endpoint(null, List.of("k")), request()));
        assertThat(later.end()).isInstanceOf(ModelUnavailableException.class).hasMessageContaining("429");
        assertThat(SEEN).hasSize(1);
    }

    @Test
    void aWholeAnswerIsAskedAgainAfterAServerError() throws Exception {
        SCRIPT.add(refuses(502, null));
        SCRIPT.add(request -> request.response().putHeader("Content-Type", "application/json").end(new JsonObject()
                .put("choices", new JsonArray().add(new JsonObject().put("message", new JsonObject()
                        .put("role", "assistant").put("content", "It ships today."))))
                .put("usage", new JsonObject().put("prompt_tokens", 9).put("completion_tokens", 4)).encode()));
        ModelReply reply = chat.complete(endpoint(null, List.of("k-1", "k-2")), request()).await()
                .atMost(Duration.ofSeconds(10));
        assertThat(reply.text()).isEqualTo("It ships today.");
        assertThat(SEEN).extracting(Seen::authorization).containsExactlyInAnyOrder("Bearer k-1", "Bearer k-2");
    }
}
