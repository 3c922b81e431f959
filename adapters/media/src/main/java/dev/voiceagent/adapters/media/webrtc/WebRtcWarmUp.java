package dev.voiceagent.adapters.media.webrtc;

import dev.voiceagent.domain.audio.Resampler;
import io.github.jaredmdobson.concentus.OpusApplication;
import io.github.jaredmdobson.concentus.OpusEncoder;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.bouncycastle.tls.DatagramTransport;

/**
 * WebRTC's self-check and warm-up, run by the replica's warm-up before it reports ready (deploy's {@code WarmUp}):
 * this process's certificate made, one DTLS-SRTP handshake of {@link DtlsSrtpServer} with {@link DtlsSrtpClient} in
 * memory (the keys both sides export compared), an SRTP packet both ways and an Opus frame through the codec. A
 * runtime where browsers' calls could not work (a crypto provider missing, a native image without what Bouncy Castle
 * needs) is logged at start rather than found by the first caller. Then {@link #exercise} runs what every call runs,
 * long enough for the JIT to compile it: handshakes, and seconds of speech-like audio through the calls' Opus codec
 * ({@link OpusCodec}: the agent's frames encoded and decoded back, a browser's 48 kHz SILK and CELT packets decoded;
 * with Concentus the 48 to 16 kHz resampler) and SRTP both ways.
 * A fresh JVM's first 40 WebRTC calls otherwise answered 449 ms later than warm ones at p50 (1.4 s at p99).
 */
@ApplicationScoped
public class WebRtcWarmUp {

    private static final System.Logger LOG = System.getLogger(WebRtcWarmUp.class.getName());

    /** Done when the check passed (its duration in ms), failed with why otherwise. */
    private final CompletableFuture<Long> checked = new CompletableFuture<>();

    /** The self-check (blocking: call it off any event loop); a failure is logged, and kept in {@link #checked()}. */
    public boolean selfCheck() {
        long started = System.nanoTime();
        try {
            check();
            long ms = (System.nanoTime() - started) / 1_000_000;
            LOG.log(System.Logger.Level.DEBUG, "webrtc self-check passed in {0} ms", ms);
            checked.complete(ms);
            return true;
        } catch (Exception | LinkageError e) {
            LOG.log(System.Logger.Level.WARNING, "webrtc self-check failed: browsers' WebRTC calls will not"
                    + " connect on this replica: {0}", e.toString());
            checked.completeExceptionally(e);
            return false;
        }
    }

    /** The check's outcome (for tests and health): its duration in ms, or its failure. */
    public CompletableFuture<Long> checked() {
        return checked;
    }

    /**
     * Runs a call's WebRTC work {@code handshakes} times over and {@code seconds} of audio through it (blocking), each
     * stopping early once {@code deadline} (System.nanoTime) passed. Returns the audio frames run.
     */
    public int exercise(int handshakes, int seconds, long deadline) throws Exception {
        for (int i = 0; i < handshakes && System.nanoTime() < deadline; i++) {
            check();
        }
        OpusEncoder browser = new OpusEncoder(48_000, 1, OpusApplication.OPUS_APPLICATION_AUDIO);
        try (OpusCodec codec = OpusCodec.open()) { // the calls' codec: both ways
            return exercise(codec, browser, seconds, deadline);
        }
    }

    private static int exercise(OpusCodec codec, OpusEncoder browser, int seconds, long deadline) throws Exception {
        Resampler down = codec.decodeRate() == 16_000 ? null : new Resampler(codec.decodeRate(), 16_000);
        byte[] key = new byte[16];
        byte[] salt = new byte[14];
        Srtp out = new Srtp(key, salt);
        Srtp in = new Srtp(key, salt);
        byte[] packet = new byte[12 + 1275];
        packet[0] = (byte) 0x80;
        packet[1] = 111;
        short[] decoded = new short[5_760];
        short[] agentFrame = new short[320];
        short[] browserFrame = new short[960];
        int frames = 0;
        for (; frames < seconds * 50 && System.nanoTime() < deadline; frames++) {
            speechLike(agentFrame, frames, 16_000);
            speechLike(browserFrame, frames, 48_000);
            int size = codec.encode(agentFrame, packet, 12, 1275);
            packet[2] = (byte) (frames >> 8);
            packet[3] = (byte) frames;
            byte[] sent = out.protect(Arrays.copyOf(packet, 12 + size));
            byte[] received = in.unprotect(sent, sent.length);
            int samples = codec.decode(received, 12, size, decoded);
            if (down != null) {
                down.process(Arrays.copyOf(decoded, samples));
            }
            size = browser.encode(browserFrame, 0, 960, packet, 12, 1275);
            samples = codec.decode(packet, 12, size, decoded);
            if (down != null) {
                down.process(Arrays.copyOf(decoded, samples));
            }
        }
        return frames;
    }

    /** A voiced frame: a pitch that glides between 100 and 250 Hz with three harmonics and a little noise. */
    private static void speechLike(short[] frame, int index, int rate) {
        double pitch = 175 + 75 * Math.sin(index / 25.0);
        long seed = index * 6_364_136_223_846_793_005L + 1;
        for (int i = 0; i < frame.length; i++) {
            double t = (index * frame.length + i) / (double) rate;
            seed = seed * 6_364_136_223_846_793_005L + 1_442_695_040_888_963_407L;
            double noise = ((seed >>> 40) / (double) (1L << 24) - 0.5) * 600;
            frame[i] = (short) (3_000 * Math.sin(2 * Math.PI * pitch * t) + 1_500 * Math.sin(4 * Math.PI * pitch * t)
                    + 700 * Math.sin(6 * Math.PI * pitch * t) + noise);
        }
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
            byte[] packet = new byte[1275];
            short[] frame = new short[320];
            for (int i = 0; i < frame.length; i++) {
                frame[i] = (short) (4_000 * Math.sin(i * 2 * Math.PI * 440 / 16_000));
            }
            try (OpusCodec codec = OpusCodec.open()) {
                int size = codec.encode(frame, packet, 0, packet.length);
                if (codec.decode(packet, 0, size, new short[5_760]) != 20 * codec.decodeRate() / 1_000) {
                    throw new IllegalStateException("an Opus frame did not decode to 20 ms");
                }
            }
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
