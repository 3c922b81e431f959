package dev.voiceagent.deploy.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A local stand-in for api.twilio.com, api.telnyx.com, api.plivo.com and api.vobiz.ai that records every request a
 * gateway makes. Plivo's and Vobiz's Call API refuse what the real ones would: credentials of another account, a
 * dial without its answer_url, a number written with a plus.
 */
public class FakeProviderServer implements QuarkusTestResourceLifecycleManager {

    /** @param xAuth Vobiz's X-Auth-ID and X-Auth-Token headers, joined by a colon (null without them) */
    public record Received(String method, String path, String authorization, String contentType, String body,
            String xAuth) {
    }

    public static final List<Received> REQUESTS = new CopyOnWriteArrayList<>();
    public static volatile int status = 201;
    public static volatile String lastSid;
    private static final AtomicLong SIDS = new AtomicLong();
    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String xAuthId = exchange.getRequestHeaders().getFirst("X-Auth-ID");
            Received received = new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    exchange.getRequestHeaders().getFirst("Authorization"),
                    exchange.getRequestHeaders().getFirst("Content-Type"), body,
                    xAuthId == null ? null : xAuthId + ":" + exchange.getRequestHeaders().getFirst("X-Auth-Token"));
            REQUESTS.add(received);
            String path = exchange.getRequestURI().getPath();
            if (path.startsWith("/v1/Account/") || path.startsWith("/api/v1/Account/")) {
                plivo(exchange, received);
                return;
            }
            boolean telnyx = exchange.getRequestURI().getPath().startsWith("/v2/");
            lastSid = (telnyx ? "v3:telnyx-%032x" : "CA%032x").formatted(SIDS.incrementAndGet());
            String json = telnyx ? "{\"data\": {\"call_control_id\": \"" + lastSid + "\", \"is_alive\": true}}"
                    : "{\"sid\": \"" + lastSid + "\", \"status\": \"queued\"}";
            byte[] answer = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        return Map.of("voiceagent.twilio.base-url", base, "voiceagent.telnyx.base-url", base,
                "voiceagent.plivo.base-url", base, "voiceagent.vobiz.base-url", base);
    }

    /** Plivo's Call API (and Vobiz's, under /api with X-Auth headers), as the gateways use it. */
    private static void plivo(HttpExchange exchange, Received received) throws IOException {
        String path = received.path();
        boolean vobiz = path.startsWith("/api/");
        String account = path.split("/")[vobiz ? 4 : 3];
        String refusal = null;
        if (vobiz ? received.xAuth() == null || !received.xAuth().startsWith(account + ":")
                || received.xAuth().endsWith(":null") || received.xAuth().endsWith(":")
                : received.authorization() == null || !new String(Base64.getDecoder().decode(
                        received.authorization().substring("Basic ".length())), StandardCharsets.UTF_8)
                        .startsWith(account + ":")) {
            refusal = "401 authentication failed";
        }
        int code = status;
        String json;
        if (refusal == null && path.endsWith("/Call/") && "POST".equals(received.method())) {
            JsonObject dial = new JsonObject(received.body());
            for (String field : new String[] {"from", "to", "answer_url"}) {
                if (dial.getString(field) == null || dial.getString(field).isBlank()) {
                    refusal = "400 " + field + " is required";
                }
            }
            if (refusal == null && (dial.getString("to").startsWith("+") || dial.getString("from").startsWith("+"))) {
                refusal = "400 numbers are written without the plus";
            }
            lastSid = "%08x-plivo-request-%012x".formatted(SIDS.incrementAndGet(), SIDS.get());
            json = "{\"api_id\": \"api-1\", \"message\": \"call fired\", \"request_uuid\": \"" + lastSid + "\"}";
        } else if ("DELETE".equals(received.method())) {
            json = null;
            code = status == 201 || status == 200 ? 204 : status;
        } else if ("GET".equals(received.method())) {
            json = "{\"call_status\": \"in-progress\", \"call_uuid\": \"c\"}";
            code = status == 201 ? 200 : status;
        } else {
            json = "{\"api_id\": \"api-2\", \"message\": \"call transferred\"}";
            code = status == 201 ? 202 : status;
        }
        if (refusal != null) {
            code = Integer.parseInt(refusal.substring(0, 3));
            json = "{\"error\": \"" + refusal.substring(4) + "\"}";
        }
        if (json == null) {
            exchange.sendResponseHeaders(code, -1);
            exchange.close();
            return;
        }
        byte[] answer = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(code, answer.length);
        exchange.getResponseBody().write(answer);
        exchange.close();
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }
}
