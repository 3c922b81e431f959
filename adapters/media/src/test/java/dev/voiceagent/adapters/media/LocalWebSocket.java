package dev.voiceagent.adapters.media;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.ServerWebSocket;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A real WebSocket on localhost, for a media socket under test: its server side handed to the socket on its event
 * loop (as the routes do after the upgrade), its client side played by the test (the carrier, the browser).
 *
 * <p>The client speaks RFC 6455 itself on a plain socket, reading on its own thread from the moment of the upgrade:
 * what the server says with the upgrade is never lost (Vert.x's client dropped that first message about one time in
 * five: its handlers reach the socket after the upgrade), and a test can send what a hostile carrier would, a frame of
 * any size included (a library's client refuses to).
 */
public final class LocalWebSocket implements AutoCloseable {

    /** The frame size a carrier's client uses unless told otherwise: a longer message goes out in several frames. */
    public static final int DEFAULT_MAX_FRAME = 65_536;
    private static final int CONTINUATION = 0x0, TEXT = 0x1, BINARY = 0x2, CLOSE = 0x8, PING = 0x9, PONG = 0xA;

    public final BlockingQueue<String> texts = new LinkedBlockingQueue<>();
    public final BlockingQueue<byte[]> binaries = new LinkedBlockingQueue<>();
    /** "status reason" of the close, as the client saw it ("null null" when the connection was cut without one). */
    public final CompletableFuture<String> closed = new CompletableFuture<>();
    private final HttpServer server;
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final int maxFrame;
    private volatile boolean closeSent;

    private LocalWebSocket(HttpServer server, Socket socket, int maxFrame) throws IOException {
        this.server = server;
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
        this.maxFrame = maxFrame;
    }

    /** A server on a free port whose upgraded sockets go to {@code opened}, and a client connected to it. */
    public static LocalWebSocket open(Vertx vertx, Consumer<ServerWebSocket> opened) throws Exception {
        return open(vertx, opened, DEFAULT_MAX_FRAME);
    }

    /** As {@link #open(Vertx, Consumer)}, the client's messages cut into frames of at most {@code maxFrame} bytes. */
    public static LocalWebSocket open(Vertx vertx, Consumer<ServerWebSocket> opened, int maxFrame) throws Exception {
        HttpServer server = vertx.createHttpServer().requestHandler(request -> request.toWebSocket()
                .onSuccess(opened::accept));
        int port = server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS)
                .actualPort();
        Socket socket = new Socket("127.0.0.1", port);
        socket.setTcpNoDelay(true);
        LocalWebSocket local = new LocalWebSocket(server, socket, maxFrame);
        local.upgrade(port);
        Thread.ofPlatform().daemon().name("local-websocket-reader").start(local::read);
        return local;
    }

    private void upgrade(int port) throws Exception {
        byte[] nonce = new byte[16];
        ThreadLocalRandom.current().nextBytes(nonce);
        String key = Base64.getEncoder().encodeToString(nonce);
        out.write(("GET /media HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        socket.setSoTimeout(10_000);
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) { // byte by byte: a frame may follow the head in the same read
            head.append((char) in.readUnsignedByte());
        }
        socket.setSoTimeout(0);
        String accept = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-1")
                .digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(StandardCharsets.US_ASCII)));
        assertThat(head.toString()).as("the upgrade's answer").startsWith("HTTP/1.1 101")
                .containsIgnoringCase("sec-websocket-accept: " + accept);
    }

    /** The reader's loop: whole messages queued, pings answered, the close recorded and answered. */
    private void read() {
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        int messageType = 0;
        try {
            while (true) {
                int first = in.readUnsignedByte();
                int second = in.readUnsignedByte();
                long length = second & 0x7F;
                if (length == 126) {
                    length = in.readUnsignedShort();
                } else if (length == 127) {
                    length = in.readLong();
                }
                byte[] payload = new byte[Math.toIntExact(length)];
                in.readFully(payload);
                boolean fin = (first & 0x80) != 0;
                int opcode = first & 0x0F;
                switch (opcode) {
                    case CLOSE -> {
                        String seen = payload.length >= 2
                                ? (((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF)) + " "
                                        + new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8)
                                : "1005 ";
                        answerClose();
                        closed.complete(seen);
                        return;
                    }
                    case PING -> write(PONG, payload, 0, payload.length, true);
                    case PONG -> { }
                    default -> {
                        if (opcode != CONTINUATION) {
                            messageType = opcode;
                        }
                        message.writeBytes(payload);
                        if (fin) {
                            if (messageType == TEXT) {
                                texts.add(message.toString(StandardCharsets.UTF_8));
                            } else if (messageType == BINARY) {
                                binaries.add(message.toByteArray());
                            }
                            message.reset();
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            closed.complete("null null"); // cut without a close frame
        } finally {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    private void answerClose() {
        if (!closeSent) {
            closeSent = true;
            try {
                write(CLOSE, new byte[] {0x03, (byte) 0xE8}, 0, 2, true); // 1000
            } catch (IOException ignored) {
                // the server may have gone already
            }
        }
    }

    /** One masked frame, as a client sends it. */
    private synchronized void write(int opcode, byte[] data, int from, int length, boolean fin) throws IOException {
        ByteArrayOutputStream frame = new ByteArrayOutputStream(length + 14);
        frame.write((fin ? 0x80 : 0) | opcode);
        if (length < 126) {
            frame.write(0x80 | length);
        } else if (length <= 0xFFFF) {
            frame.write(0x80 | 126);
            frame.write(length >>> 8);
            frame.write(length);
        } else {
            frame.write(0x80 | 127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                frame.write((int) ((long) length >>> shift));
            }
        }
        byte[] mask = new byte[4];
        ThreadLocalRandom.current().nextBytes(mask);
        frame.writeBytes(mask);
        for (int i = 0; i < length; i++) {
            frame.write(data[from + i] ^ mask[i & 3]);
        }
        out.write(frame.toByteArray());
        out.flush();
    }

    /** A message in frames of at most the client's frame size; a write the closed socket refuses is dropped. */
    private void message(int opcode, byte[] data) {
        try {
            int at = 0;
            do {
                int n = Math.min(maxFrame, data.length - at);
                write(at == 0 ? opcode : CONTINUATION, data, at, n, at + n == data.length);
                at += n;
            } while (at < data.length);
        } catch (IOException e) {
            // the server closed the socket under the write: what the test checks is then how it was closed
        }
    }

    public void send(String text) {
        message(TEXT, text.getBytes(StandardCharsets.UTF_8));
    }

    public void send(byte[] data) {
        message(BINARY, data);
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
        answerClose();
        closeSeen();
    }

    @Override
    public void close() throws Exception {
        if (!closed.isDone()) {
            answerClose();
            closed.completeOnTimeout("null null", 1, TimeUnit.SECONDS).join();
        }
        socket.close();
        server.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    }
}
