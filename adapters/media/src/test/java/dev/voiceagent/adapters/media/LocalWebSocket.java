package dev.voiceagent.adapters.media;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ClientWebSocket;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A real WebSocket on localhost, for a media socket under test: its server side handed to the socket on its event
 * loop (as the routes do after the upgrade), its client side played by the test (the carrier, the browser), with
 * what the client receives queued.
 */
public final class LocalWebSocket implements AutoCloseable {

    public final BlockingQueue<String> texts = new LinkedBlockingQueue<>();
    public final BlockingQueue<byte[]> binaries = new LinkedBlockingQueue<>();
    /** "status reason" of the close, as the client saw it. */
    public final CompletableFuture<String> closed = new CompletableFuture<>();
    private final HttpServer server;
    private final WebSocketClient connector;
    /** The test's end of the socket. */
    private WebSocket client;

    private LocalWebSocket(HttpServer server, WebSocketClient connector) {
        this.server = server;
        this.connector = connector;
    }

    /** A server on a free port whose upgraded sockets go to {@code opened}, and a client connected to it. */
    public static LocalWebSocket open(Vertx vertx, Consumer<ServerWebSocket> opened) throws Exception {
        return open(vertx, opened, new WebSocketClientOptions());
    }

    /** As {@link #open(Vertx, Consumer)}, with the client's own options (a client that sends frames of any size). */
    public static LocalWebSocket open(Vertx vertx, Consumer<ServerWebSocket> opened, WebSocketClientOptions client)
            throws Exception {
        HttpServer server = vertx.createHttpServer().requestHandler(request -> request.toWebSocket()
                .onSuccess(opened::accept));
        int port = server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS)
                .actualPort();
        LocalWebSocket local = new LocalWebSocket(server, vertx.createWebSocketClient(client));
        // the handlers are set before it connects: what the server says with the upgrade is not lost (handlers set
        // once the connection completed missed it now and then)
        ClientWebSocket socket = local.connector.webSocket();
        socket.textMessageHandler(local.texts::add);
        socket.binaryMessageHandler(data -> local.binaries.add(data.getBytes()));
        socket.closeHandler(v -> local.closed.complete(socket.closeStatusCode() + " " + socket.closeReason()));
        local.client = socket.connect(port, "127.0.0.1", "/media").toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        return local;
    }

    public void send(String text) {
        client.writeTextMessage(text);
    }

    public void send(byte[] data) {
        client.writeBinaryMessage(Buffer.buffer(data));
    }

    /** The next text message the client received, waiting up to 5 s. */
    public String nextText() throws InterruptedException {
        String text = texts.poll(5, TimeUnit.SECONDS);
        assertThat(text).as("the next text message").isNotNull();
        return text;
    }

    /** The next binary message the client received, waiting up to 5 s. */
    public byte[] nextBinary() throws InterruptedException {
        byte[] data = binaries.poll(5, TimeUnit.SECONDS);
        assertThat(data).as("the next binary message").isNotNull();
        return data;
    }

    /** How the socket was closed, waiting up to 5 s. */
    public String closeSeen() throws Exception {
        return closed.get(5, TimeUnit.SECONDS);
    }

    /** The client hangs up (a close frame, as a carrier ending the stream) and waits for the socket to be closed. */
    public void hangUp() throws Exception {
        client.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        closeSeen();
    }

    @Override
    public void close() throws Exception {
        if (!client.isClosed()) {
            client.close();
        }
        connector.close();
        server.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    }
}
