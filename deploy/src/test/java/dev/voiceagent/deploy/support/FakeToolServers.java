package dev.voiceagent.deploy.support;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A local API a tenant's tools call, and a small MCP server speaking the streamable HTTP transport (JSON-RPC over
 * POST; the tools/list first page answered as an SSE stream, the second as JSON; a session id given at
 * initialize and required afterwards). Both record what they receive.
 */
public final class FakeToolServers implements AutoCloseable {

    public record Received(String method, String path, String query, Map<String, List<String>> headers, String body) {

        public String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().getFirst()).findFirst().orElse(null);
        }
    }

    public static final String SESSION = "session-7f3a";
    private static final ObjectMapper JSON = new ObjectMapper();

    public final List<Received> received = new CopyOnWriteArrayList<>();
    private final HttpServer server;
    public final String base;

    public FakeToolServers() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", this::handle);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    public List<Received> at(String path) {
        return received.stream().filter(r -> r.path().equals(path)).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        received.add(new Received(exchange.getRequestMethod(), path, exchange.getRequestURI().getRawQuery(),
                Map.copyOf(exchange.getRequestHeaders()), body));
        try {
            if (path.startsWith("/mcp")) {
                mcp(exchange, path, body);
            } else if (path.startsWith("/orders/")) {
                json(exchange, 200, Map.of("id", path.substring("/orders/".length()), "status", "shipped"));
            } else if (path.equals("/echo")) {
                exchange.getResponseHeaders().add("X-Echo", "yes");
                json(exchange, 201, Map.of("received", body.isEmpty() ? Map.of() : JSON.readValue(body, Map.class)));
            } else if (path.equals("/route")) { // a transfer resolver: the department the model gave picks the desk
                Map<?, ?> asked = body.isEmpty() ? Map.of() : JSON.readValue(body, Map.class);
                if ("sales".equals(asked.get("department"))) {
                    json(exchange, 200, Map.of("transfer_context", Map.of("destination", "+14155550166",
                            "custom_message", "Putting you through to " + asked.get("region") + " sales.")));
                } else {
                    json(exchange, 200, Map.of("transfer_context", Map.of()));
                }
            } else if (path.equals("/missing")) {
                json(exchange, 404, Map.of("error", "no such order"));
            } else if (path.equals("/big")) {
                send(exchange, 200, "text/plain", "z".repeat(3 << 20));
            } else if (path.equals("/slow")) {
                Thread.sleep(3_000);
                json(exchange, 200, Map.of());
            } else if (path.equals("/to-private")) {
                exchange.getResponseHeaders().add("Location", "http://10.1.2.3/admin");
                exchange.sendResponseHeaders(302, -1);
            } else {
                send(exchange, 200, "text/plain", "plain text answer");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException gone) {
            // the client gave up
        } finally {
            exchange.close();
        }
    }

    private void mcp(HttpExchange exchange, String path, String body) throws IOException {
        if (exchange.getRequestMethod().equals("DELETE")) {
            exchange.sendResponseHeaders(200, -1);
            return;
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> message = JSON.readValue(body, Map.class);
        String method = (String) message.get("method");
        Object id = message.get("id");
        String session = exchange.getRequestHeaders().getFirst("Mcp-Session-Id");
        if ("initialize".equals(method)) {
            @SuppressWarnings("unchecked")
            Map<String, Object> params = (Map<String, Object>) message.get("params");
            exchange.getResponseHeaders().add("Mcp-Session-Id", SESSION);
            json(exchange, 200, Map.of("jsonrpc", "2.0", "id", id, "result", Map.of(
                    "protocolVersion", params.get("protocolVersion"), "capabilities", Map.of("tools", Map.of()),
                    "serverInfo", Map.of("name", "fake-crm", "version", "1.0.0"))));
            return;
        }
        if (!SESSION.equals(session)) {
            json(exchange, 400, Map.of("jsonrpc", "2.0", "id", id == null ? "server" : id, "error",
                    Map.of("code", -32600, "message", "Bad Request: No valid session ID provided")));
            return;
        }
        if ("notifications/initialized".equals(method)) {
            exchange.sendResponseHeaders(202, -1);
            return;
        }
        if ("tools/list".equals(method)) {
            if (path.equals("/mcp-broken")) {
                json(exchange, 200, Map.of("jsonrpc", "2.0", "id", id, "error",
                        Map.of("code", -32603, "message", "CRM database is down")));
                return;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> params = (Map<String, Object>) message.get("params");
            Object cursor = params == null ? null : params.get("cursor");
            if (cursor == null) {
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("tools", List.of(tool("lookup_customer", "Finds a customer by phone"),
                        tool("create_ticket", "Opens a support ticket")));
                result.put("nextCursor", "page-2");
                String event = "event: message\ndata: " + JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", id,
                        "result", result)) + "\n\n";
                send(exchange, 200, "text/event-stream", event);
            } else {
                json(exchange, 200, Map.of("jsonrpc", "2.0", "id", id, "result",
                        Map.of("tools", List.of(tool("delete_everything", "Drops the CRM")))));
            }
            return;
        }
        json(exchange, 200, Map.of("jsonrpc", "2.0", "id", id == null ? 0 : id, "error",
                Map.of("code", -32601, "message", "Method not found")));
    }

    private static Map<String, Object> tool(String name, String description) {
        return Map.of("name", name, "description", description, "inputSchema", Map.of("type", "object",
                "properties", Map.of("phone", Map.of("type", "string")), "required", List.of("phone")));
    }

    private static void json(HttpExchange exchange, int status, Object value) throws IOException {
        send(exchange, status, "application/json", JSON.writeValueAsString(value));
    }

    private static void send(HttpExchange exchange, int status, String type, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }
}
