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

    /**
     * The first request of {@code method} whose path ends with {@code pathEnd} (a test's own dial, whatever a call of
     * an earlier test sent late, as its hang-up).
     */
    public static Received first(String method, String pathEnd) {
        return REQUESTS.stream().filter(r -> r.method().equals(method) && r.path().endsWith(pathEnd)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + method + " ..." + pathEnd + " in " + REQUESTS));
    }
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
            if (path.startsWith("/v1/calls")) {
                vonage(exchange, received);
                return;
            }
            if (path.startsWith("/calls/") || path.startsWith("/customers/self/domains/")) {
                cloudonix(exchange, received);
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
                "voiceagent.plivo.base-url", base, "voiceagent.vobiz.base-url", base, "voiceagent.vonage.base-url", base,
                "voiceagent.cloudonix.base-url", base);
    }

    /** The Cloudonix domain and its API key the fake REST API takes. */
    public static volatile String cloudonixDomain;
    public static volatile String cloudonixKey;

    /**
     * Cloudonix's REST API: the domain's API key as Bearer for its own domain only (401 otherwise, as Cloudonix denies
     * a key of another domain); a call needs its destination and a voice application (here CXML whose stream has a
     * url), and answers its session token; sessions are deleted (204) and switched to new CXML.
     */
    private static void cloudonix(HttpExchange exchange, Received received) throws IOException {
        String path = received.path();
        String domain = path.startsWith("/calls/") ? path.split("/")[2] : path.split("/")[4];
        int code = status == 201 ? 200 : status;
        String json = "{}";
        if (!("Bearer " + cloudonixKey).equals(received.authorization()) || !domain.equals(cloudonixDomain)) {
            code = 401;
            json = "{\"message\": \"Unauthorized\"}";
        } else if ("POST".equals(received.method()) && path.endsWith("/application") && !path.contains("/sessions/")) {
            JsonObject call = new JsonObject(received.body());
            String cxml = call.getString("cxml", "");
            if (call.getString("destination") == null || !cxml.contains("<Stream url=\"")) {
                code = 400;
                json = "{\"message\": \"destination and a voice application are required\"}";
            } else {
                lastSid = "%032x".formatted(SIDS.incrementAndGet());
                json = "{\"domainId\": 3, \"subscriberId\": 372, \"destination\": \"" + call.getString("destination")
                        + "\", \"direction\": \"outbound-api\", \"token\": \"" + lastSid + "\"}";
            }
        } else if ("DELETE".equals(received.method())) {
            code = code == 200 ? 204 : code;
        } else if ("GET".equals(received.method())) {
            json = "{\"status\": \"connected\", \"callAnswerTime\": 1764410000000}";
        }
        if (code == 204) {
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

    /** The public key of the Vonage application whose tokens the fake Voice API takes, and its id. */
    public static volatile java.security.PublicKey vonageKey;
    public static volatile String vonageApplication;

    /**
     * Vonage's Voice API: every request's Bearer token an RS256 JWT of the application (signature, application_id,
     * exp); a call created with its to, from and an NCCO whose websocket endpoint streams linear PCM (16 or 8 kHz).
     */
    private static void vonage(HttpExchange exchange, Received received) throws IOException {
        String refusal = vonageToken(received.authorization());
        int code = status;
        String json = null;
        if (refusal == null && "POST".equals(received.method())) {
            JsonObject call = new JsonObject(received.body());
            io.vertx.core.json.JsonArray ncco = call.getJsonArray("ncco");
            if (call.getJsonArray("to") == null || call.getJsonObject("from") == null) {
                refusal = "400 to and from are required";
            } else if ((ncco == null || ncco.isEmpty()) && call.getJsonArray("answer_url") == null) {
                refusal = "400 an ncco or an answer_url is required";
            } else if (ncco != null) {
                for (Object action : ncco) {
                    for (Object endpoint : ((JsonObject) action).getJsonArray("endpoint", new io.vertx.core.json.JsonArray())) {
                        String type = ((JsonObject) endpoint).getString("content-type", "");
                        if ("websocket".equals(((JsonObject) endpoint).getString("type"))
                                && !type.equals("audio/l16;rate=16000") && !type.equals("audio/l16;rate=8000")) {
                            refusal = "400 websocket content-type " + type + " is not supported";
                        }
                    }
                }
            }
            lastSid = "%08x-vonage-call-%012x".formatted(SIDS.incrementAndGet(), SIDS.get());
            json = "{\"uuid\": \"" + lastSid + "\", \"status\": \"started\", \"direction\": \"outbound\","
                    + " \"conversation_uuid\": \"CON-" + lastSid + "\"}";
        } else if ("GET".equals(received.method())) {
            json = "{\"status\": \"answered\"}";
            code = status == 201 ? 200 : status;
        } else {
            code = status == 201 ? 204 : status;
        }
        if (refusal != null) {
            code = Integer.parseInt(refusal.substring(0, 3));
            json = "{\"title\": \"" + refusal.substring(4) + "\"}";
        }
        if (json == null || code == 204) {
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

    /** Null for the application's valid RS256 token; the refusal otherwise. */
    private static String vonageToken(String authorization) {
        if (authorization == null || !authorization.startsWith("Bearer ")) {
            return "401 missing bearer token";
        }
        String[] parts = authorization.substring(7).split("\\.");
        try {
            java.security.Signature rsa = java.security.Signature.getInstance("SHA256withRSA");
            rsa.initVerify(vonageKey);
            rsa.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
            if (!rsa.verify(Base64.getUrlDecoder().decode(parts[2]))) {
                return "401 invalid token signature";
            }
            JsonObject claims = new JsonObject(new String(Base64.getUrlDecoder().decode(parts[1]),
                    StandardCharsets.UTF_8));
            if (!"RS256".equals(new JsonObject(new String(Base64.getUrlDecoder().decode(parts[0]),
                    StandardCharsets.UTF_8)).getString("alg"))) {
                return "401 not RS256";
            }
            if (!claims.getString("application_id", "").equals(vonageApplication) || claims.getString("jti") == null
                    || claims.getLong("exp", 0L) < System.currentTimeMillis() / 1000) {
                return "401 invalid claims";
            }
            return null;
        } catch (java.security.GeneralSecurityException | RuntimeException e) {
            return "401 unreadable token";
        }
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
