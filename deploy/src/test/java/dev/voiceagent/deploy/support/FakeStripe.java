package dev.voiceagent.deploy.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local stand-in for api.stripe.com as this service calls it. Like Stripe it refuses a request without the
 * secret key as a Bearer token (401) or with a body that is not form-encoded (400), answers a repeated
 * Idempotency-Key with the first answer, creates customers, Checkout Sessions and Billing Portal sessions, and
 * refuses a price it does not know ("price_gone") with Stripe's error body. Every request is recorded.
 */
public class FakeStripe implements QuarkusTestResourceLifecycleManager {

    public static final String SECRET_KEY = "sk_test_fake";

    public record Received(String path, String idempotencyKey, Map<String, String> form) {
    }

    public static final List<Received> REQUESTS = new CopyOnWriteArrayList<>();
    private static final Map<String, String> ANSWERED = new ConcurrentHashMap<>();
    private static final AtomicInteger IDS = new AtomicInteger();

    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", FakeStripe::handle);
        server.start();
        return Map.of("voiceagent.billing.stripe.api-base", "http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private static void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
        Map<String, String> form = form(body);
        String path = exchange.getRequestURI().getPath();
        if (!("Bearer " + SECRET_KEY).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            answer(exchange, 401, "{\"error\":{\"type\":\"invalid_request_error\",\"message\":\"Invalid API Key provided\"}}");
            return;
        }
        if (!"application/x-www-form-urlencoded".equals(exchange.getRequestHeaders().getFirst("Content-Type"))
                || !"POST".equals(exchange.getRequestMethod())) {
            answer(exchange, 400, "{\"error\":{\"type\":\"invalid_request_error\",\"message\":\"Invalid request\"}}");
            return;
        }
        REQUESTS.add(new Received(path, key, form));
        if (key != null && ANSWERED.containsKey(key)) {
            answer(exchange, 200, ANSWERED.get(key));
            return;
        }
        int id = IDS.incrementAndGet();
        String json = switch (path) {
            case "/v1/customers" -> "{\"id\":\"cus_fake" + id + "\",\"object\":\"customer\"}";
            case "/v1/checkout/sessions" -> "price_gone".equals(form.get("line_items[0][price]")) ? null
                    : "{\"id\":\"cs_test_" + id + "\",\"object\":\"checkout.session\",\"url\":"
                            + "\"https://checkout.stripe.test/c/pay/cs_test_" + id + "\"}";
            case "/v1/billing_portal/sessions" -> "{\"id\":\"bps_" + id + "\",\"url\":"
                    + "\"https://billing.stripe.test/p/session/" + id + "\"}";
            default -> null;
        };
        if (json == null) {
            answer(exchange, 400, "{\"error\":{\"type\":\"invalid_request_error\",\"message\":\"No such price: '"
                    + form.get("line_items[0][price]") + "'\"}}");
            return;
        }
        if (key != null) {
            ANSWERED.put(key, json);
        }
        answer(exchange, 200, json);
    }

    private static Map<String, String> form(String body) {
        Map<String, String> form = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                form.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return form;
    }

    private static void answer(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }
}
