package dev.voiceagent.deploy.support;

import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** A local stand-in for api.twilio.com and api.telnyx.com that records every request a gateway makes. */
public class FakeProviderServer implements QuarkusTestResourceLifecycleManager {

    public record Received(String method, String path, String authorization, String contentType, String body) {
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
            REQUESTS.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    exchange.getRequestHeaders().getFirst("Authorization"),
                    exchange.getRequestHeaders().getFirst("Content-Type"), body));
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
        return Map.of("voiceagent.twilio.base-url", base, "voiceagent.telnyx.base-url", base);
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }
}
