package dev.voiceagent.adapters.media.webrtc;

import io.github.jaredmdobson.concentus.OpusApplication;
import io.github.jaredmdobson.concentus.OpusDecoder;
import io.github.jaredmdobson.concentus.OpusEncoder;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.bouncycastle.tls.DatagramTransport;

/**
 * WebRTC's self-check at start, off the start's path (a virtual thread, a second after it): this process's certificate
 * made, one DTLS-SRTP handshake of {@link DtlsSrtpServer} with {@link DtlsSrtpClient} in memory (the keys both sides
 * export compared), an SRTP packet both ways and an Opus frame through the codec. A runtime where browsers' calls could not work (a crypto
 * provider missing, a native image without what Bouncy Castle needs) is logged at start rather than found by the first
 * caller; and the first call pays less for loading and first running all of it (in Chromium, a fresh JVM's first
 * call heard its greeting 1.0-1.3 s after the socket opened without this, 0.57-0.75 s with it; later calls 0.2-0.3 s).
 */
@ApplicationScoped
public class WebRtcWarmUp {

    private static final System.Logger LOG = System.getLogger(WebRtcWarmUp.class.getName());
    private static final long START_DELAY_MS = 1_000;

    /** Done when the check passed (its duration in ms), failed with why otherwise. */
    private final CompletableFuture<Long> checked = new CompletableFuture<>();

    void onStart(@Observes StartupEvent event) {
        Thread.ofVirtual().name("webrtc-self-check").start(() -> {
            try {
                Thread.sleep(START_DELAY_MS); // after the start itself, whose time is measured and awaited
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            long started = System.nanoTime();
            try {
                check();
                long ms = (System.nanoTime() - started) / 1_000_000;
                LOG.log(System.Logger.Level.DEBUG, "webrtc self-check passed in {0} ms", ms);
                checked.complete(ms);
            } catch (Exception | LinkageError e) {
                LOG.log(System.Logger.Level.WARNING, "webrtc self-check failed: browsers' WebRTC calls will not"
                        + " connect on this replica: {0}", e.toString());
                checked.completeExceptionally(e);
            }
        });
    }

    /** The check's outcome (for tests and health): its duration in ms, or its failure. */
    public CompletableFuture<Long> checked() {
        return checked;
    }

    static void check() throws Exception {
        DtlsSrtpServer.Identity browser = DtlsSrtpServer.generate();
        BlockingQueue<byte[]> toClient = new LinkedBlockingQueue<>();
        CompletableFuture<DtlsSrtpServer.Keys> serverKeys = new CompletableFuture<>();
        DtlsSrtpServer server = new DtlsSrtpServer(toClient::add, browser.fingerprint, new DtlsSrtpServer.Listener() {
            @Override
            public void secured(DtlsSrtpServer.Keys keys) {
                serverKeys.complete(keys);
            }

            @Override
            public void failed(String why) {
                serverKeys.completeExceptionally(new IOException(why));
            }

            @Override
            public void closed() {
                serverKeys.completeExceptionally(new IOException("closed during the check"));
            }
        });
        server.start("webrtc-self-check-server");
        try {
            DtlsSrtpClient client = new DtlsSrtpClient(browser);
            DtlsSrtpServer.Keys clientKeys = client.connect(transport(toClient, server::received));
            DtlsSrtpServer.Keys keys = serverKeys.get(10, TimeUnit.SECONDS);
            if (!Arrays.equals(keys.clientKey, clientKeys.clientKey) || !Arrays.equals(keys.serverSalt,
                    clientKeys.serverSalt)) {
                throw new IllegalStateException("the two sides exported different SRTP keys");
            }
            if (!DtlsSrtpServer.matches(client.serverCertificate, DtlsSrtpServer.identity().fingerprint)) {
                throw new IllegalStateException("the certificate shown is not the one the answers name");
            }
            byte[] rtp = new byte[12 + 40];
            rtp[0] = (byte) 0x80;
            rtp[1] = 111;
            byte[] sent = new Srtp(keys.serverKey, keys.serverSalt).protect(rtp);
            if (!Arrays.equals(new Srtp(clientKeys.serverKey, clientKeys.serverSalt).unprotect(sent, sent.length),
                    rtp)) {
                throw new IllegalStateException("SRTP did not read back");
            }
            OpusEncoder encoder = new OpusEncoder(16_000, 1, OpusApplication.OPUS_APPLICATION_VOIP);
            byte[] packet = new byte[1275];
            short[] frame = new short[320];
            for (int i = 0; i < frame.length; i++) {
                frame[i] = (short) (4_000 * Math.sin(i * 2 * Math.PI * 440 / 16_000));
            }
            int size = encoder.encode(frame, 0, 320, packet, 0, packet.length);
            new OpusDecoder(48_000, 1).decode(packet, 0, size, new short[5_760], 0, 5_760, false);
        } finally {
            server.close();
        }
    }

    /** The client's datagrams: what the server sends arrives in {@code inbox}, what it sends goes to {@code out}. */
    static DatagramTransport transport(BlockingQueue<byte[]> inbox, Consumer<byte[]> out) {
        return new DatagramTransport() {
            @Override
            public int getReceiveLimit() {
                return 1500;
            }

            @Override
            public int getSendLimit() {
                return 1200;
            }

            @Override
            public int receive(byte[] buf, int off, int len, int waitMillis) throws IOException {
                try {
                    byte[] next = inbox.poll(waitMillis, TimeUnit.MILLISECONDS);
                    if (next == null) {
                        return -1;
                    }
                    int n = Math.min(len, next.length);
                    System.arraycopy(next, 0, buf, off, n);
                    return n;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
            }

            @Override
            public void send(byte[] buf, int off, int len) {
                out.accept(Arrays.copyOfRange(buf, off, off + len));
            }

            @Override
            public void close() {
            }
        };
    }
}
