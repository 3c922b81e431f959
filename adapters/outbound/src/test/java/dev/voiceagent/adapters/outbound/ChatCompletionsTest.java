package dev.voiceagent.adapters.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.voiceagent.application.conversation.ModelUnavailableException;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.domain.conversation.ChatMessage;
import dev.voiceagent.domain.conversation.FunctionSpec;
import dev.voiceagent.domain.conversation.ModelReply;
import dev.voiceagent.domain.conversation.ModelRequest;
import dev.voiceagent.domain.conversation.ToolCall;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The chat completions adapter against a local server that records what it is sent and answers as OpenAI does:
 * tool calls, a refusal, a rate limit and an outage (asked again), and a time-out (not).
 */
class ChatCompletionsTest {

    record Received(String method, String path, String query, String authorization, String apiKey, JsonObject body) {
    }

    record Answer(int status, String body, long delayMs) {
    }

    private static final List<Received> RECEIVED = new CopyOnWriteArrayList<>();
    private static final Deque<Answer> ANSWERS = new ConcurrentLinkedDeque<>();
    private static HttpServer server;
    private static Vertx vertx;
    private static String base;
    private static ChatCompletions chat;

    @BeforeAll
    static void start() throws IOException {
        vertx = Vertx.vertx();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            RECEIVED.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    exchange.getRequestURI().getQuery(), exchange.getRequestHeaders().getFirst("Authorization"),
                    exchange.getRequestHeaders().getFirst("api-key"), new JsonObject(body)));
            Answer answer = ANSWERS.isEmpty() ? new Answer(200, text("ok"), 0) : ANSWERS.removeFirst();
            try {
                if (answer.delayMs() > 0) {
                    Thread.sleep(answer.delayMs());
                }
                byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(answer.status(), bytes.length);
                exchange.getResponseBody().write(bytes);
            } catch (IOException | InterruptedException gone) {
                // the client gave up
            } finally {
                exchange.close();
            }
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
        GuardedHttp http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(800));
        ProviderApis apis = new ProviderApis(base + "/v1", base + "/google", "2024-10-21", base, base, base, "v");
        chat = new ChatCompletions(http, apis, Duration.ofMillis(800), Duration.ofMillis(500), 3, Duration.ofMillis(20),
                Duration.ofSeconds(2));
    }

    @AfterAll
    static void stop() {
        server.stop(0);
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        RECEIVED.clear();
        ANSWERS.clear();
    }

    private static String text(String content) {
        return "{\"id\": \"chatcmpl-1\", \"object\": \"chat.completion\", \"choices\": [{\"index\": 0, \"message\":"
                + " {\"role\": \"assistant\", \"content\": \"" + content + "\"}, \"finish_reason\": \"stop\"}],"
                + " \"usage\": {\"prompt_tokens\": 20, \"completion_tokens\": 5, \"total_tokens\": 25}}";
    }

    private static ModelEndpoint endpoint(String provider, String baseUrl, List<String> keys, Map<String, Object> settings) {
        return new ModelEndpoint(ModelService.LLM, provider, "gpt-4.1-mini", baseUrl, keys, settings, false);
    }

    private static ModelRequest request() {
        return new ModelRequest(List.of(ChatMessage.system("You are polite.\n\nAsk for the name."),
                ChatMessage.assistant(null, List.of(new ToolCall("call_0", "interested", Map.of()))),
                ChatMessage.tool("call_0", "Moved to Qualify"), ChatMessage.user("I'm Bob")),
                List.of(new FunctionSpec("done", "The caller gave their details", FunctionSpec.NO_PARAMETERS,
                        FunctionSpec.Kind.TRANSITION)));
    }

    @Test
    void theRequestIsOpenAIsChatCompletionsAndToolCallsComeBackAsFunctionCalls() {
        ANSWERS.add(new Answer(200, "{\"choices\": [{\"message\": {\"role\": \"assistant\", \"content\": null,"
                + " \"tool_calls\": [{\"id\": \"call_9\", \"type\": \"function\", \"function\": {\"name\": \"done\","
                + " \"arguments\": \"{\\\"reason\\\": \\\"complete\\\", \\\"nested\\\": {\\\"a\\\": [1]}}\"}}]}}],"
                + " \"usage\": {\"prompt_tokens\": 31, \"completion_tokens\": 7, \"total_tokens\": 38}}", 0));
        ModelReply reply = chat.complete(endpoint("openai", base + "/v1", List.of("sk-test-1"), Map.of()), request())
                .await().indefinitely();

        Received sent = RECEIVED.getFirst();
        assertThat(sent.method()).isEqualTo("POST");
        assertThat(sent.path()).isEqualTo("/v1/chat/completions");
        assertThat(sent.authorization()).isEqualTo("Bearer sk-test-1");
        assertThat(sent.body().getString("model")).isEqualTo("gpt-4.1-mini");
        assertThat(sent.body().getJsonArray("messages").getJsonObject(0))
                .isEqualTo(new JsonObject().put("role", "system").put("content", "You are polite.\n\nAsk for the name."));
        JsonObject assistant = sent.body().getJsonArray("messages").getJsonObject(1);
        assertThat(assistant.getValue("content")).isNull();
        assertThat(assistant.getJsonArray("tool_calls").getJsonObject(0).getJsonObject("function").getString("arguments"))
                .isEqualTo("{}");
        assertThat(sent.body().getJsonArray("messages").getJsonObject(2)).isEqualTo(new JsonObject().put("role", "tool")
                .put("tool_call_id", "call_0").put("content", "Moved to Qualify"));
        assertThat(sent.body().getJsonArray("tools").getJsonObject(0)).isEqualTo(new JsonObject("{\"type\":\"function\","
                + "\"function\":{\"name\":\"done\",\"parameters\":{\"type\":\"object\",\"properties\":{}},"
                + "\"description\":\"The caller gave their details\"}}"));

        assertThat(reply.text()).isNull();
        assertThat(reply.toolCalls()).containsExactly(new ToolCall("call_9", "done", Map.of("reason", "complete",
                "nested", Map.of("a", List.of(1)))));
        assertThat(reply.usage().totalTokens()).isEqualTo(38);
    }

    @Test
    void aRateLimitIsTriedAgainWithTheNextKeyAndAnOutageThatLastsIsTheProvidersMessage() {
        ANSWERS.add(new Answer(429, "{\"error\": {\"message\": \"Rate limit reached\"}}", 0));
        ANSWERS.add(new Answer(200, text("Hello"), 0));
        ModelReply reply = chat.complete(endpoint("groq", base + "/openai/v1", List.of("k-1", "k-2"), Map.of()),
                request()).await().indefinitely();
        assertThat(reply.text()).isEqualTo("Hello");
        assertThat(RECEIVED).extracting(Received::authorization).containsExactlyInAnyOrder("Bearer k-1", "Bearer k-2");

        clear();
        for (int i = 0; i < 3; i++) {
            ANSWERS.add(new Answer(503, "{\"error\": {\"message\": \"The server is overloaded\"}}", 0));
        }
        assertThatThrownBy(() -> chat.complete(endpoint("openai", null, List.of("k"), Map.of()), request())
                .await().indefinitely()).isInstanceOf(ModelUnavailableException.class)
                .hasMessage("The language model failed: OpenAI answered 503: The server is overloaded")
                .satisfies(f -> assertThat(((ModelUnavailableException) f).attempts()).isEqualTo(3));
        assertThat(RECEIVED).as("three tries in all").hasSize(3);
    }

    @Test
    void aRefusalIsNotRetriedAndATimeOutIsReported() {
        ANSWERS.add(new Answer(401, "{\"error\": {\"message\": \"Incorrect API key provided\"}}", 0));
        assertThatThrownBy(() -> chat.complete(endpoint("openai", null, List.of("bad"), Map.of()), request())
                .await().indefinitely()).hasMessage("The language model failed: OpenAI answered 401: Incorrect API key"
                + " provided");
        assertThat(RECEIVED).hasSize(1);

        clear();
        ANSWERS.add(new Answer(200, text("late"), 2_000));
        assertThatThrownBy(() -> chat.complete(endpoint("openai", null, List.of("k"), Map.of()), request())
                .await().indefinitely()).isInstanceOf(UpstreamServiceException.class).hasMessageContaining("timed out");
        assertThat(RECEIVED).as("an answer that ran out of time is not asked for again").hasSize(1);
    }

    @Test
    void azureUsesItsDeploymentPathApiVersionAndApiKeyHeader() {
        ANSWERS.add(new Answer(200, text("Hi from Azure"), 0));
        ModelReply reply = chat.complete(endpoint("azure", base + "/", List.of("az-key"), Map.of("temperature", 0.2)),
                request()).await().indefinitely();
        Received sent = RECEIVED.getFirst();
        assertThat(sent.path()).isEqualTo("/openai/deployments/gpt-4.1-mini/chat/completions");
        assertThat(sent.query()).isEqualTo("api-version=2024-10-21");
        assertThat(sent.apiKey()).isEqualTo("az-key");
        assertThat(sent.authorization()).isNull();
        assertThat(sent.body().getDouble("temperature")).isEqualTo(0.2);
        assertThat(reply.text()).isEqualTo("Hi from Azure");
    }

    @Test
    void aTenantsPrivateBaseUrlIsRefusedAndAProviderWithoutTheProtocolIsAClear400() {
        assertThatThrownBy(() -> chat.complete(endpoint("openai", "http://10.0.0.7/v1", List.of("k"), Map.of()),
                request()).await().indefinitely()).isInstanceOf(UpstreamServiceException.class)
                .hasMessageContaining("10.0.0.7").hasMessageContaining("not allowed");
        assertThatThrownBy(() -> chat.complete(endpoint("aws_bedrock", null, List.of("k"), Map.of()), request())
                .await().indefinitely()).isInstanceOf(DomainRuleViolation.class)
                .hasMessageContaining("OpenAI-compatible");
        assertThat(RECEIVED).isEmpty();
    }
}
