package dev.voiceagent.adapters.outbound.mcp;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpTransportException;
import io.modelcontextprotocol.spec.ProtocolVersions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The Model Context Protocol's streamable HTTP transport (client side) over {@link GuardedHttp}, so an MCP
 * server a tenant names is reached only through the installation's address guard. Each message is POSTed to the
 * server's one endpoint with {@code Accept: application/json, text/event-stream}; the answer is a JSON message
 * (or a batch), an SSE stream of messages, or 202 for a notification. The session id the server gives at
 * initialization ({@code Mcp-Session-Id}) and the negotiated {@code MCP-Protocol-Version} go on every later
 * request. The SDK's client drives the protocol (initialize, notifications/initialized, tools/list).
 */
final class GuardedMcpTransport implements McpClientTransport {

    static final String SESSION_HEADER = "Mcp-Session-Id";
    static final String VERSION_HEADER = "MCP-Protocol-Version";

    private final GuardedHttp http;
    private final String url;
    private final Map<String, String> headers;
    private final Duration timeout;
    private final McpJsonMapper json;
    private volatile Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler;
    private volatile String sessionId;
    private volatile String protocolVersion;

    GuardedMcpTransport(GuardedHttp http, String url, Map<String, String> headers, Duration timeout,
            McpJsonMapper json) {
        this.http = http;
        this.url = url;
        this.headers = Map.copyOf(headers);
        this.timeout = timeout;
        this.json = json;
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        this.handler = handler;
        return Mono.empty();
    }

    @Override
    public List<String> protocolVersions() {
        return List.of(ProtocolVersions.MCP_2025_03_26, ProtocolVersions.MCP_2025_06_18,
                ProtocolVersions.MCP_2025_11_25);
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        byte[] body;
        try {
            body = json.writeValueAsBytes(message);
        } catch (IOException e) {
            return Mono.error(new McpTransportException("Could not write the MCP message", e));
        }
        boolean initialize = message instanceof McpSchema.JSONRPCRequest r
                && McpSchema.METHOD_INITIALIZE.equals(r.method());
        Map<String, String> sent = new LinkedHashMap<>(headers);
        sent.put("Content-Type", "application/json");
        sent.put("Accept", "application/json, text/event-stream");
        if (sessionId != null) {
            sent.put(SESSION_HEADER, sessionId);
        }
        if (protocolVersion != null) {
            sent.put(VERSION_HEADER, protocolVersion);
        }
        return Mono.fromCompletionStage(() -> http.exchange("POST", url, sent, body, timeout).subscribeAsCompletionStage())
                .flatMap(reply -> {
                    if (reply.status() == 202 || reply.status() == 204) {
                        return Mono.empty();
                    }
                    if (reply.status() / 100 != 2) {
                        return Mono.error(new McpTransportException("The MCP server answered HTTP " + reply.status()
                                + excerpt(reply.body())));
                    }
                    String session = reply.headers().get(SESSION_HEADER.toLowerCase(Locale.ROOT));
                    if (initialize && session != null && !session.isBlank()) {
                        sessionId = session;
                    }
                    List<McpSchema.JSONRPCMessage> received;
                    try {
                        received = messages(reply.headers().getOrDefault("content-type", ""), reply.body());
                    } catch (IOException e) {
                        return Mono.error(new McpTransportException("The MCP server answered something that is not"
                                + " a JSON-RPC message" + excerpt(reply.body())));
                    }
                    for (McpSchema.JSONRPCMessage m : received) {
                        if (initialize && m instanceof McpSchema.JSONRPCResponse response
                                && response.result() instanceof Map<?, ?> result
                                && result.get("protocolVersion") instanceof String version) {
                            protocolVersion = version;
                        }
                        handler.apply(Mono.just(m)).subscribe();
                    }
                    return Mono.<Void>empty();
                });
    }

    /** The messages of an answer: one JSON message, a JSON batch, or the data of each SSE event. */
    private List<McpSchema.JSONRPCMessage> messages(String contentType, String body) throws IOException {
        List<McpSchema.JSONRPCMessage> out = new ArrayList<>();
        if (contentType.toLowerCase(Locale.ROOT).startsWith("text/event-stream")) {
            for (String event : body.replace("\r\n", "\n").split("\n\n")) {
                StringBuilder data = new StringBuilder();
                for (String line : event.split("\n")) {
                    if (line.startsWith("data:")) {
                        data.append(data.isEmpty() ? "" : "\n").append(line.substring(5).stripLeading());
                    }
                }
                if (!data.isEmpty()) {
                    out.add(McpSchema.deserializeJsonRpcMessage(json, data.toString()));
                }
            }
            return out;
        }
        String text = body.strip();
        if (text.startsWith("[")) {
            List<Object> batch = json.readValue(text.getBytes(StandardCharsets.UTF_8), new TypeRef<List<Object>>() {
            });
            for (Object item : batch) {
                out.add(McpSchema.deserializeJsonRpcMessage(json, json.writeValueAsString(item)));
            }
        } else if (!text.isEmpty()) {
            out.add(McpSchema.deserializeJsonRpcMessage(json, text));
        }
        return out;
    }

    private static String excerpt(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        String s = body.strip();
        return ": " + (s.length() > 300 ? s.substring(0, 300) + "..." : s);
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return json.convertValue(data, typeRef);
    }

    @Override
    public Mono<Void> closeGracefully() {
        String session = sessionId;
        sessionId = null;
        if (session == null) {
            return Mono.empty();
        }
        // ends the server's session (a server without sessions answers 405; either way we are done)
        Map<String, String> sent = new LinkedHashMap<>(headers);
        sent.put(SESSION_HEADER, session);
        return Mono.fromCompletionStage(() -> http.exchange("DELETE", url, sent, null, timeout)
                        .subscribeAsCompletionStage())
                .onErrorResume(e -> Mono.empty()).then();
    }
}
