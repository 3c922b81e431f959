package dev.voiceagent.deploy.support;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A webhook receiver as a customer would run one: it records every delivery with its Standard Webhooks headers
 * and answers with the statuses queued for it (200 once the queue is empty).
 */
public final class WebhookReceiver implements AutoCloseable {

    public record Received(String id, String timestamp, String signature, String body) {

        /** Whether one of the "v1,..." signatures is HMAC-SHA256 of "id.timestamp.body" with the secret. */
        public boolean signedWith(String secret) {
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())),
                        "HmacSHA256"));
                String expected = "v1," + Base64.getEncoder().encodeToString(
                        mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8)));
                for (String candidate : signature.split(" ")) {
                    if (candidate.equals(expected)) {
                        return true;
                    }
                }
                return false;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    public record Answer(int status, String retryAfter) {
    }

    public final List<Received> received = new CopyOnWriteArrayList<>();
    /** Every delivery's headers, names in lower case, in the order received. */
    public final List<Map<String, String>> headers = new CopyOnWriteArrayList<>();
    public final Queue<Answer> answers = new ConcurrentLinkedQueue<>();
    private final HttpServer server;

    public WebhookReceiver() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            var h = exchange.getRequestHeaders();
            Map<String, String> all = new TreeMap<>();
            h.forEach((k, v) -> all.put(k.toLowerCase(Locale.ROOT), v.getFirst()));
            headers.add(all);
            received.add(new Received(h.getFirst("webhook-id"), h.getFirst("webhook-timestamp"),
                    h.getFirst("webhook-signature"), body));
            Answer answer = answers.poll();
            int status = answer == null ? 200 : answer.status();
            if (answer != null && answer.retryAfter() != null) {
                exchange.getResponseHeaders().add("Retry-After", answer.retryAfter());
            }
            byte[] out = ("{\"status\": " + status + "}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, out.length);
            exchange.getResponseBody().write(out);
            exchange.close();
        });
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks";
    }

    public List<Received> ofType(String type) {
        List<Received> out = new ArrayList<>();
        for (Received r : received) {
            if (r.body().contains("\"type\": \"" + type + "\"") || r.body().contains("\"type\":\"" + type + "\"")) {
                out.add(r);
            }
        }
        return out;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
