package dev.voiceagent.adapters.media;

import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.http.HttpServerOptions;
import jakarta.inject.Singleton;

/**
 * The WebSocket subprotocol Asterisk's chan_websocket asks for ({@code Sec-WebSocket-Protocol: media}): the server
 * agrees to it, or Asterisk drops the connection. A client that asks for none is unaffected.
 */
@Singleton
public class MediaSubprotocol implements HttpServerOptionsCustomizer {

    static final String MEDIA = "media";

    @Override
    public void customizeHttpServer(HttpServerOptions options) {
        add(options);
    }

    @Override
    public void customizeHttpsServer(HttpServerOptions options) {
        add(options);
    }

    private static void add(HttpServerOptions options) {
        if (options.getWebSocketSubProtocols() == null || !options.getWebSocketSubProtocols().contains(MEDIA)) {
            options.addWebSocketSubProtocol(MEDIA);
        }
    }
}
