package dev.voiceagent.adapters.outbound.tool;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.application.shared.OutboundRefusedException;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.application.tool.ToolHttp;
import dev.voiceagent.domain.tool.HttpToolRequest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An http_api tool's request, sent through the address guard: JSON in, the answer parsed when it is JSON. */
@ApplicationScoped
public class GuardedToolHttp implements ToolHttp {

    private final GuardedHttp http;

    public GuardedToolHttp(GuardedHttp http) {
        this.http = http;
    }

    @Override
    public Uni<Reply> send(HttpToolRequest request) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Accept", "application/json");
        headers.put("User-Agent", "voice-agent-tools/1.0");
        byte[] body = null;
        if (request.body() != null) {
            headers.put("Content-Type", "application/json");
            body = Json.encode(request.body()).getBytes(StandardCharsets.UTF_8);
        }
        request.headers().forEach((k, v) -> {
            headers.keySet().removeIf(existing -> existing.equalsIgnoreCase(k));
            headers.put(k, v);
        });
        return http.exchange(request.method(), request.url(), headers, body, Duration.ofMillis(request.timeoutMs()))
                .map(ex -> {
                    String text = ex.body();
                    return new Reply(ex.status(), ex.headers(), text, ex.truncated(), ex.truncated() ? null : parsed(text),
                            ex.durationMs());
                })
                .onFailure(GuardedHttp.Refused.class).transform(f -> new OutboundRefusedException(f.getMessage()))
                .onFailure(GuardedHttp.Unreachable.class).transform(f -> new UpstreamServiceException(
                        "The tool's API could not be reached: " + f.getMessage()));
    }

    /** The body as maps, lists and scalars when it is JSON; null otherwise. */
    static Object parsed(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            return plain(Json.decodeValue(body));
        } catch (DecodeException notJson) {
            return null;
        }
    }

    private static Object plain(Object value) {
        if (value instanceof JsonObject o) {
            Map<String, Object> out = new LinkedHashMap<>();
            o.forEach(e -> out.put(e.getKey(), plain(e.getValue())));
            return out;
        }
        if (value instanceof JsonArray a) {
            List<Object> out = new ArrayList<>();
            a.forEach(item -> out.add(plain(item)));
            return out;
        }
        if (value instanceof Map<?, ?> m) {
            return plain(new JsonObject(castMap(m)));
        }
        if (value instanceof List<?> l) {
            return plain(new JsonArray(new ArrayList<>(l)));
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Map<?, ?> m) {
        return (Map<String, Object>) m;
    }
}
