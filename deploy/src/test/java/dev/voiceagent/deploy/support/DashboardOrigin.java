package dev.voiceagent.deploy.support;

import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * The dashboard's origin, as a website's visitor's browser reaches it: it serves the reference's widget script
 * ({@code /embed/dograh-widget.js}, as shipped: src/test/resources/browser/embed) and nothing else, and the service is
 * told it is where the widget lives ({@code voiceagent.embed.widget-base-url}), so the embed code it hands out loads
 * the widget from here.
 */
public class DashboardOrigin implements QuarkusTestResourceLifecycleManager {

    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/embed/dograh-widget.js", exchange -> {
            try (InputStream in = DashboardOrigin.class.getResourceAsStream("/browser/embed/dograh-widget.js")) {
                byte[] script = in.readAllBytes();
                exchange.getResponseHeaders().add("Content-Type", "application/javascript; charset=utf-8");
                exchange.sendResponseHeaders(200, script.length);
                exchange.getResponseBody().write(script);
            }
            exchange.close();
        });
        server.start();
        return Map.of("voiceagent.embed.widget-base-url", "http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }
}
