package dev.voiceagent.adapters.outbound;

import dev.voiceagent.application.conversation.ModelDelta;
import dev.voiceagent.application.conversation.ModelStreamBrokenException;
import dev.voiceagent.application.conversation.ModelUnavailableException;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.domain.conversation.ChatMessage;
import dev.voiceagent.domain.conversation.FunctionSpec;
import dev.voiceagent.domain.conversation.ModelReply;
import dev.voiceagent.domain.conversation.ModelRequest;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.conversation.ToolCall;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The OpenAI chat completions protocol (POST {base}/chat/completions with tools and tool_calls), which most
 * providers speak: OpenAI and any OpenAI-compatible server, Groq, OpenRouter, Google's compatible API, Azure
 * OpenAI deployments, Hugging Face, Ollama, the installation's managed endpoint. A failure before the answer (a 5xx, a
 * 429 with or without Retry-After, a connection refused or reset, and for a streamed answer no first byte within
 * {@code voiceagent.models.first-byte-timeout}) is asked again within the installation's budget
 * ({@code voiceagent.models.retry.*}, the domain's {@link RetryBudget}), each time with the account's next key when it
 * has several; anything else that fails is the provider's own status and message, a
 * {@link ModelUnavailableException}. A streamed answer that breaks after some of its text came is not asked again
 * ({@link ModelStreamBrokenException}).
 */
@Singleton
public class ChatCompletions {

    private static final Logger LOG = Logger.getLogger(ChatCompletions.class);
    static final String FAILED = "The language model failed: ";

    private final GuardedHttp http;
    private final ProviderApis apis;
    private final Duration timeout;
    private final Duration firstByte;
    private final RetryBudget budget;
    private final AtomicInteger rotation = new AtomicInteger();

    public ChatCompletions(GuardedHttp http, ProviderApis apis,
            @ConfigProperty(name = "voiceagent.models.chat-timeout", defaultValue = "PT60S") Duration timeout,
            @ConfigProperty(name = "voiceagent.models.first-byte-timeout", defaultValue = "PT3S") Duration firstByte,
            @ConfigProperty(name = "voiceagent.models.retry.attempts", defaultValue = "3") int attempts,
            @ConfigProperty(name = "voiceagent.models.retry.backoff", defaultValue = "PT0.2S") Duration backoff,
            @ConfigProperty(name = "voiceagent.models.retry.budget", defaultValue = "PT2S") Duration budget) {
        this.http = http;
        this.apis = apis;
        this.timeout = timeout;
        this.firstByte = firstByte;
        this.budget = new RetryBudget(attempts, backoff, budget);
    }

    /**
     * The whole answer at once (text chat, the voicemail classifier). Retried as a stream is before its first byte,
     * except when the answer itself ran out of time ({@code voiceagent.models.chat-timeout}): the user has waited that
     * long already.
     */
    public Uni<ModelReply> complete(ModelEndpoint endpoint, ModelRequest request) {
        List<String> keys = endpoint.apiKeys();
        int first = keys.isEmpty() ? 0 : Math.floorMod(rotation.getAndIncrement(), keys.size());
        String body = body(endpoint, request).encode();
        String name = ProviderApis.display(endpoint.provider());
        return complete(endpoint, keys, first, body, name, 1, -1);
    }

    private Uni<ModelReply> complete(ModelEndpoint endpoint, List<String> keys, int first, String body, String name,
            int attempt, long firstFailure) {
        String key = keys.isEmpty() ? null : keys.get((first + attempt - 1) % keys.size());
        return attempt(endpoint, key, body).onItemOrFailure().transformToUni((reply, failure) -> {
            if (failure == null && reply.status() / 100 == 2) {
                return Uni.createFrom().item(() -> parse(reply.body(), name));
            }
            if (failure != null && !(failure instanceof GuardedHttp.Unreachable)) {
                return Uni.createFrom().failure(failure);
            }
            String message;
            Duration retryAfter = null;
            boolean again;
            if (failure != null) {
                message = FAILED + name + ": " + failure.getMessage();
                again = !(failure instanceof GuardedHttp.Refused) && !(failure instanceof GuardedHttp.TimedOut);
            } else {
                String said = ProviderChecks.message(reply.body());
                message = FAILED + name + " answered " + reply.status() + (said == null ? "" : ": " + said);
                retryAfter = RetryBudget.retryAfter(reply.retryAfter(), Instant.now());
                again = RetryBudget.transientStatus(reply.status());
            }
            long failedAt = firstFailure < 0 ? System.nanoTime() : firstFailure;
            Optional<Duration> wait = again ? budget.next(attempt, Duration.ofNanos(System.nanoTime() - failedAt),
                    retryAfter, ThreadLocalRandom.current().nextDouble()) : Optional.empty();
            if (wait.isEmpty()) {
                return Uni.createFrom().failure(new ModelUnavailableException(message, attempt));
            }
            LOG.debugf("%s; try %d in %d ms", message, attempt + 1, wait.get().toMillis());
            return Uni.createFrom().voidItem().onItem().delayIt().by(wait.get())
                    .chain(() -> complete(endpoint, keys, first, body, name, attempt + 1, failedAt));
        });
    }

    /**
     * The answer streamed (server-sent events with {@code stream_options.include_usage}): text deltas as they come,
     * tool calls assembled from their per-index fragments, then the whole reply with the final usage chunk's tokens;
     * before the first delta, a {@link ModelDelta.Retrying} for each retry (see {@link ChatStream}). Cancelling the
     * subscription closes the HTTP stream.
     */
    public Multi<ModelDelta> stream(ModelEndpoint endpoint, ModelRequest request) {
        return Multi.createFrom().emitter(emitter -> {
            List<String> keys = endpoint.apiKeys();
            int first = keys.isEmpty() ? 0 : Math.floorMod(rotation.getAndIncrement(), keys.size());
            String name = ProviderApis.display(endpoint.provider());
            JsonObject body = body(endpoint, request).put("stream", true)
                    .put("stream_options", new JsonObject().put("include_usage", true));
            new ChatStream(http, name, attempt -> ChatTargets.of(endpoint, keys.isEmpty() ? null
                    : keys.get((first + attempt - 1) % keys.size()), apis), body.encode(), timeout, firstByte, budget,
                    emitter).start();
        });
    }

    /** A streamed answer read line by line: its deltas as they come, the whole reply at the end. */
    static final class SseReply {
        private final String provider;
        private final StringBuilder pending = new StringBuilder();
        private final StringBuilder text = new StringBuilder();
        private final TreeMap<Integer, String[]> calls = new TreeMap<>();
        private TokenUsage usage = TokenUsage.ZERO;

        SseReply(String provider) {
            this.provider = provider;
        }

        List<ModelDelta> feed(Buffer chunk) {
            pending.append(chunk.toString(StandardCharsets.UTF_8));
            List<ModelDelta> out = new ArrayList<>();
            int newline;
            while ((newline = pending.indexOf("\n")) >= 0) {
                String line = pending.substring(0, newline).strip();
                pending.delete(0, newline + 1);
                if (line.startsWith("data:")) {
                    line(line.substring(5).strip(), out);
                }
            }
            return out;
        }

        private void line(String data, List<ModelDelta> out) {
            if (data.isEmpty() || data.equals("[DONE]")) {
                return;
            }
            JsonObject chunk;
            try {
                chunk = new JsonObject(data);
            } catch (DecodeException e) {
                throw new UpstreamServiceException(FAILED + provider + " streamed something that is not JSON");
            }
            if (chunk.getValue("error") instanceof JsonObject error) {
                throw new UpstreamServiceException(FAILED + provider + ": " + error.getString("message", "error"));
            }
            if (chunk.getValue("usage") instanceof JsonObject u) {
                long prompt = number(u.getValue("prompt_tokens"));
                long completion = number(u.getValue("completion_tokens"));
                usage = new TokenUsage(prompt, completion, u.containsKey("total_tokens")
                        ? number(u.getValue("total_tokens")) : prompt + completion);
            }
            if (!(chunk.getValue("choices") instanceof JsonArray choices) || choices.isEmpty()
                    || !(choices.getValue(0) instanceof JsonObject choice)
                    || !(choice.getValue("delta") instanceof JsonObject delta)) {
                return; // the usage chunk (no choices), or a keep-alive
            }
            String content = text(delta.getValue("content"));
            if (content != null && !content.isEmpty()) {
                text.append(content);
                out.add(new ModelDelta.Text(content));
            }
            if (delta.getValue("tool_calls") instanceof JsonArray toolCalls) {
                for (Object item : toolCalls) {
                    if (item instanceof JsonObject call) {
                        int index = call.getInteger("index", calls.size());
                        String[] parts = calls.computeIfAbsent(index, i -> new String[] {null, "", ""});
                        if (call.getString("id") != null) {
                            parts[0] = call.getString("id");
                        }
                        if (call.getValue("function") instanceof JsonObject function) {
                            if (function.getString("name") != null) {
                                parts[1] += function.getString("name");
                            }
                            if (function.getString("arguments") != null) {
                                parts[2] += function.getString("arguments");
                            }
                        }
                    }
                }
            }
        }

        ModelDelta done() {
            List<ToolCall> assembled = new ArrayList<>();
            calls.values().forEach(p -> assembled.add(new ToolCall(p[0] == null || p[0].isBlank()
                    ? "call_" + UUID.randomUUID() : p[0], p[1], arguments(p[2]))));
            return new ModelDelta.Done(new ModelReply(text.isEmpty() ? null : text.toString(), assembled, usage));
        }
    }

    private Uni<GuardedHttp.Reply> attempt(ModelEndpoint endpoint, String key, String body) {
        ChatTargets.Target target = ChatTargets.of(endpoint, key, apis);
        return http.postJson(target.url(), target.headers(), body, timeout, target.guarded());
    }

    static JsonObject body(ModelEndpoint endpoint, ModelRequest request) {
        JsonObject body = new JsonObject();
        if (endpoint.model() != null && !endpoint.model().isBlank()) {
            body.put("model", endpoint.model());
        }
        JsonArray messages = new JsonArray();
        for (ChatMessage m : request.messages()) {
            JsonObject message = new JsonObject().put("role", m.role().wireName());
            switch (m.role()) {
                case ASSISTANT -> {
                    message.put("content", m.content());
                    if (!m.toolCalls().isEmpty()) {
                        JsonArray calls = new JsonArray();
                        for (ToolCall call : m.toolCalls()) {
                            calls.add(new JsonObject().put("id", call.id()).put("type", "function")
                                    .put("function", new JsonObject().put("name", call.name())
                                            .put("arguments", new JsonObject(call.arguments()).encode())));
                        }
                        message.put("tool_calls", calls);
                    }
                }
                case TOOL -> message.put("tool_call_id", m.toolCallId()).put("content", m.content() == null ? ""
                        : m.content());
                default -> message.put("content", m.content() == null ? "" : m.content());
            }
            messages.add(message);
        }
        body.put("messages", messages);
        if (!request.functions().isEmpty()) {
            JsonArray tools = new JsonArray();
            for (FunctionSpec f : request.functions()) {
                JsonObject function = new JsonObject().put("name", f.name()).put("parameters",
                        new JsonObject(f.parameters()));
                if (f.description() != null) {
                    function.put("description", f.description());
                }
                tools.add(new JsonObject().put("type", "function").put("function", function));
            }
            body.put("tools", tools);
        }
        if (endpoint.settings().get("temperature") instanceof Number temperature) {
            body.put("temperature", temperature);
        }
        return body;
    }

    static ModelReply parse(String body, String provider) {
        JsonObject json;
        try {
            json = new JsonObject(body);
        } catch (DecodeException | ClassCastException e) {
            throw new UpstreamServiceException(FAILED + provider + " answered something that is not JSON");
        }
        JsonArray choices = json.getJsonArray("choices");
        if (choices == null || choices.isEmpty() || !(choices.getValue(0) instanceof JsonObject choice)) {
            throw new UpstreamServiceException(FAILED + provider + " answered without a choice");
        }
        JsonObject message = choice.getJsonObject("message", new JsonObject());
        String text = text(message.getValue("content"));
        List<ToolCall> calls = new ArrayList<>();
        JsonArray toolCalls = message.getJsonArray("tool_calls");
        if (toolCalls != null) {
            for (Object item : toolCalls) {
                if (item instanceof JsonObject call && call.getValue("function") instanceof JsonObject function) {
                    String id = call.getString("id");
                    calls.add(new ToolCall(id == null || id.isBlank() ? "call_" + UUID.randomUUID() : id,
                            function.getString("name", ""), arguments(function.getValue("arguments"))));
                }
            }
        }
        JsonObject usage = json.getJsonObject("usage", new JsonObject());
        long prompt = number(usage.getValue("prompt_tokens"));
        long completion = number(usage.getValue("completion_tokens"));
        long total = usage.containsKey("total_tokens") ? number(usage.getValue("total_tokens")) : prompt + completion;
        return new ModelReply(text, calls, new TokenUsage(prompt, completion, total));
    }

    /** Text content, or the text parts of a list of content parts. */
    private static String text(Object content) {
        if (content instanceof String s) {
            return s;
        }
        if (content instanceof JsonArray parts) {
            StringBuilder out = new StringBuilder();
            for (Object part : parts) {
                if (part instanceof JsonObject p && p.getValue("text") instanceof String t) {
                    out.append(t);
                }
            }
            return out.isEmpty() ? null : out.toString();
        }
        return null;
    }

    /** The arguments, which the protocol sends as JSON text; what is not a JSON object is no arguments. */
    public static Map<String, Object> arguments(Object raw) {
        try {
            if (raw instanceof String s && !s.isBlank()) {
                return plain(new JsonObject(s));
            }
            if (raw instanceof JsonObject o) {
                return plain(o);
            }
        } catch (DecodeException | ClassCastException malformed) {
            LOG.debug("function arguments that are not a JSON object were ignored");
        }
        return Map.of();
    }

    /** Plain maps and lists all the way down (the domain knows no Vert.x JSON types). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> plain(JsonObject object) {
        return (Map<String, Object>) plainValue(object);
    }

    private static Object plainValue(Object value) {
        if (value instanceof JsonObject o) {
            Map<String, Object> out = new LinkedHashMap<>();
            o.forEach(e -> out.put(e.getKey(), plainValue(e.getValue())));
            return out;
        }
        if (value instanceof JsonArray a) {
            List<Object> out = new ArrayList<>();
            a.forEach(v -> out.add(plainValue(v)));
            return out;
        }
        return value;
    }

    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : 0;
    }
}
