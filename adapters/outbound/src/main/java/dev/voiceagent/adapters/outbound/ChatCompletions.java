package dev.voiceagent.adapters.outbound;

import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.domain.conversation.ChatMessage;
import dev.voiceagent.domain.conversation.FunctionSpec;
import dev.voiceagent.domain.conversation.ModelReply;
import dev.voiceagent.domain.conversation.ModelRequest;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.conversation.ToolCall;
import dev.voiceagent.application.conversation.ModelDelta;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The OpenAI chat completions protocol (POST {base}/chat/completions with tools and tool_calls), which most
 * providers speak: OpenAI and any OpenAI-compatible server, Groq, OpenRouter, Google's compatible API, Azure
 * OpenAI deployments, Hugging Face, Ollama, the installation's managed endpoint. A 429 or a 5xx is tried once
 * more after a pause (with the account's next key when it has several); anything else that fails is the
 * provider's own status and message.
 */
@Singleton
public class ChatCompletions {

    private static final Logger LOG = Logger.getLogger(ChatCompletions.class);
    static final String FAILED = "The language model failed: ";

    private final GuardedHttp http;
    private final ProviderApis apis;
    private final Duration timeout;
    private final Duration backoff;
    private final AtomicInteger rotation = new AtomicInteger();

    public ChatCompletions(GuardedHttp http, ProviderApis apis,
            @ConfigProperty(name = "voiceagent.models.chat-timeout", defaultValue = "PT60S") Duration timeout,
            @ConfigProperty(name = "voiceagent.models.retry-backoff", defaultValue = "PT0.5S") Duration backoff) {
        this.http = http;
        this.apis = apis;
        this.timeout = timeout;
        this.backoff = backoff;
    }

    public Uni<ModelReply> complete(ModelEndpoint endpoint, ModelRequest request) {
        List<String> keys = endpoint.apiKeys();
        int first = keys.isEmpty() ? 0 : Math.floorMod(rotation.getAndIncrement(), keys.size());
        String body = body(endpoint, request).encode();
        String name = ProviderApis.display(endpoint.provider());
        return attempt(endpoint, keys.isEmpty() ? null : keys.get(first), body).chain(reply -> {
            if (reply.status() == 429 || reply.status() >= 500) {
                String next = keys.isEmpty() ? null : keys.get((first + 1) % keys.size());
                LOG.debugf("%s answered %d; one more try", name, reply.status());
                return Uni.createFrom().voidItem().onItem().delayIt().by(pause(reply))
                        .chain(() -> attempt(endpoint, next, body));
            }
            return Uni.createFrom().item(reply);
        }).map(reply -> {
            if (reply.status() / 100 != 2) {
                String said = ProviderChecks.message(reply.body());
                throw new UpstreamServiceException(FAILED + name + " answered " + reply.status()
                        + (said == null ? "" : ": " + said));
            }
            return parse(reply.body(), name);
        }).onFailure(GuardedHttp.Unreachable.class)
                .transform(failure -> new UpstreamServiceException(FAILED + name + ": " + failure.getMessage()));
    }

    /**
     * The answer streamed (server-sent events with {@code stream_options.include_usage}): text deltas as they come,
     * tool calls assembled from their per-index fragments, then the whole reply with the final usage chunk's tokens.
     * Cancelling the subscription closes the HTTP stream.
     */
    public Multi<ModelDelta> stream(ModelEndpoint endpoint, ModelRequest request) {
        return Multi.createFrom().deferred(() -> {
            List<String> keys = endpoint.apiKeys();
            String key = keys.isEmpty() ? null : keys.get(Math.floorMod(rotation.getAndIncrement(), keys.size()));
            String name = ProviderApis.display(endpoint.provider());
            JsonObject body = body(endpoint, request).put("stream", true)
                    .put("stream_options", new JsonObject().put("include_usage", true));
            ChatTargets.Target target = ChatTargets.of(endpoint, key, apis);
            SseReply reply = new SseReply(name);
            return http.postStream(target.url(), target.headers(), body.encode(), timeout, target.guarded())
                    .onItem().transformToIterable(reply::feed)
                    .onCompletion().continueWith(() -> List.of(reply.done()))
                    .onFailure(GuardedHttp.StreamRefused.class).transform(f -> {
                        GuardedHttp.StreamRefused refused = (GuardedHttp.StreamRefused) f;
                        String said = ProviderChecks.message(refused.body);
                        return new UpstreamServiceException(FAILED + name + " answered " + refused.status
                                + (said == null ? "" : ": " + said));
                    })
                    .onFailure(GuardedHttp.Unreachable.class)
                    .transform(f -> new UpstreamServiceException(FAILED + name + ": " + f.getMessage()));
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

    /** The provider's Retry-After when it is a short number of seconds, else the configured pause. */
    private Duration pause(GuardedHttp.Reply reply) {
        try {
            if (reply.retryAfter() != null) {
                long seconds = Long.parseLong(reply.retryAfter().strip());
                if (seconds >= 0 && seconds <= 5) {
                    return Duration.ofSeconds(seconds);
                }
            }
        } catch (NumberFormatException notSeconds) {
            // an HTTP date: the configured pause
        }
        return backoff;
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
