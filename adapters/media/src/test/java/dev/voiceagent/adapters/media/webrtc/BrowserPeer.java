package dev.voiceagent.adapters.media.webrtc;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.jaredmdobson.concentus.OpusApplication;
import io.github.jaredmdobson.concentus.OpusDecoder;
import io.github.jaredmdobson.concentus.OpusEncoder;
import io.github.jaredmdobson.concentus.OpusException;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The browser's side of a WebRTC call, in this process, as the service's peer meets it: an offer, ICE connectivity
 * checks, DTLS as the client ({@link DtlsSrtpClient}), SRTP both ways and Opus (Concentus). What the peer sends is
 * queued by kind, each RTP packet with when it came.
 */
final class BrowserPeer implements AutoCloseable {

    static final int OPUS = 111;
    private static final Pattern CANDIDATE = Pattern.compile("a=candidate:\\S+ 1 udp \\d+ (\\S+) (\\d+) typ host");

    final DtlsSrtpServer.Identity identity;
    final String ufrag = "brws";
    final String password = "browser-ice-password-0123";
    final BlockingQueue<byte[]> stun = new LinkedBlockingQueue<>();
    /** The peer's RTP packets (decrypted once keys are known) with their arrival (System.nanoTime). */
    final BlockingQueue<Received> rtp = new LinkedBlockingQueue<>();
    private final BlockingQueue<byte[]> dtls = new LinkedBlockingQueue<>();
    private final DatagramSocket udp;
    private final Thread reader;
    private InetSocketAddress peer;
    private String peerUfrag;
    private String peerPassword;
    private volatile Srtp inbound;
    /**
     * SRTP that arrived before this side's handshake returned with the keys (the peer finishes its side first and sends
     * at once): kept and decrypted then, not dropped (dropping the first packet failed a test now and then).
     */
    private final List<Received> early = new ArrayList<>();
    private Srtp outbound;
    private final OpusEncoder encoder;
    private int sequence = 1_000;
    private long timestamp = 48_000;

    record Received(byte[] packet, long at) {
        int payloadType() {
            return packet[1] & 0x7F;
        }

        boolean marker() {
            return (packet[1] & 0x80) != 0;
        }

        int sequence() {
            return ((packet[2] & 0xFF) << 8) | (packet[3] & 0xFF);
        }

        long timestamp() {
            return ByteBuffer.wrap(packet).getInt(4) & 0xFFFFFFFFL;
        }

        int ssrc() {
            return ByteBuffer.wrap(packet).getInt(8);
        }

        byte[] payload() {
            return Arrays.copyOfRange(packet, Srtp.headerLength(packet, packet.length), packet.length);
        }
    }

    BrowserPeer(DtlsSrtpServer.Identity identity) throws SocketException, OpusException {
        this.identity = identity;
        this.udp = new DatagramSocket(0, InetAddress.getLoopbackAddress());
        this.encoder = new OpusEncoder(16_000, 1, OpusApplication.OPUS_APPLICATION_VOIP);
        encoder.setBitrate(24_000);
        this.reader = Thread.ofVirtual().name("browser-udp").start(this::read);
    }

    /** An offer as a browser makes it for its microphone: Opus at {@value #OPUS}, this side's ICE and fingerprint. */
    String offer() {
        return String.join("\r\n", "v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
                "m=audio 9 UDP/TLS/RTP/SAVPF " + OPUS, "c=IN IP4 0.0.0.0", "a=ice-ufrag:" + ufrag,
                "a=ice-pwd:" + password, "a=fingerprint:" + identity.fingerprint, "a=setup:actpass", "a=mid:0",
                "a=sendrecv", "a=rtcp-mux", "a=rtpmap:" + OPUS + " opus/48000/2",
                "a=fmtp:" + OPUS + " minptime=10;useinbandfec=1", "") + "\r\n";
    }

    /** Learns the peer's address and ICE credentials from its answer. */
    void answered(String sdp) {
        Matcher candidate = CANDIDATE.matcher(sdp);
        assertThat(candidate.find()).as("a host candidate in the answer").isTrue();
        peer = new InetSocketAddress(candidate.group(1), Integer.parseInt(candidate.group(2)));
        peerUfrag = attribute(sdp, "ice-ufrag");
        peerPassword = attribute(sdp, "ice-pwd");
    }

    private static String attribute(String sdp, String name) {
        Matcher m = Pattern.compile("a=" + name + ":(\\S+)").matcher(sdp);
        assertThat(m.find()).as(name + " in the answer").isTrue();
        return m.group(1);
    }

    /** A Binding request (USERNAME, ICE-CONTROLLING, USE-CANDIDATE, MESSAGE-INTEGRITY, FINGERPRINT): its id. */
    byte[] check(String password) {
        byte[] packet = Stun.bindingRequest(peerUfrag + ":" + ufrag, password);
        send(packet);
        return java.util.Arrays.copyOfRange(packet, 8, 20);
    }

    /** A check with the answer's password. */
    byte[] check() {
        return check(peerPassword);
    }

    /** DTLS as the browser (blocking): the SRTP keys of both directions set up from it. */
    void handshake() throws IOException {
        DtlsSrtpServer.Keys keys = new DtlsSrtpClient(identity).connect(WebRtcWarmUp.transport(dtls, this::send));
        outbound = new Srtp(keys.clientKey, keys.clientSalt);
        Srtp keyed = new Srtp(keys.serverKey, keys.serverSalt);
        synchronized (early) {
            for (Received held : early) {
                byte[] plain = keyed.unprotect(held.packet(), held.packet().length);
                if (plain != null) {
                    rtp.add(new Received(plain, held.at()));
                }
            }
            early.clear();
            inbound = keyed;
        }
    }

    /** One 20 ms frame of 16 kHz PCM as an Opus packet over SRTP, numbered {@code sequence}. */
    void speak(short[] frame, int sequence) throws OpusException {
        byte[] opus = new byte[1275];
        int size = encoder.encode(frame, 0, frame.length, opus, 0, opus.length);
        byte[] packet = new byte[12 + size];
        packet[0] = (byte) 0x80;
        packet[1] = OPUS;
        packet[2] = (byte) (sequence >> 8);
        packet[3] = (byte) sequence;
        ByteBuffer.wrap(packet).putInt(4, (int) (timestamp + 960L * sequence)).putInt(8, 0x0BE0C0DE);
        System.arraycopy(opus, 0, packet, 12, size);
        send(outbound.protect(packet));
    }

    /** The next frame, numbered on from the last. */
    void speak(short[] frame) throws OpusException {
        speak(frame, sequence++);
    }

    /** An SRTCP-looking packet (a receiver report's type): the peer does not read RTCP. */
    void report() {
        byte[] packet = new byte[40];
        packet[0] = (byte) 0x80;
        packet[1] = (byte) 201;
        send(packet);
    }

    /** The next RTP packet of the peer, waiting up to {@code ms}; null when none came. */
    Received nextRtp(long ms) throws InterruptedException {
        return rtp.poll(ms, TimeUnit.MILLISECONDS);
    }

    /** {@code ms} of a 440 Hz tone at 16 kHz, in 20 ms frames. */
    static short[][] tone(int ms) {
        short[][] frames = new short[ms / 20][320];
        for (int f = 0; f < frames.length; f++) {
            for (int i = 0; i < 320; i++) {
                frames[f][i] = (short) (8_000 * Math.sin(2 * Math.PI * 440 * (f * 320 + i) / 16_000.0));
            }
        }
        return frames;
    }

    /** Opus decoded at 16 kHz. */
    static short[] decode(OpusDecoder decoder, byte[] opus) throws OpusException {
        short[] pcm = new short[960];
        int samples = decoder.decode(opus, 0, opus.length, pcm, 0, pcm.length, false);
        return Arrays.copyOf(pcm, samples);
    }

    /** The root mean square of 16-bit samples. */
    static double rms(short[] samples) {
        double sum = 0;
        for (short s : samples) {
            sum += (double) s * s;
        }
        return Math.sqrt(sum / Math.max(1, samples.length));
    }

    /** How often the signal crosses zero, in crossings per second at 16 kHz (twice its pitch for a tone). */
    static double crossingsPerSecond(short[] samples) {
        int crossings = 0;
        for (int i = 1; i < samples.length; i++) {
            if ((samples[i - 1] < 0) != (samples[i] < 0)) {
                crossings++;
            }
        }
        return crossings * 16_000.0 / samples.length;
    }

    static short[] samples(byte[] pcm) {
        short[] samples = new short[pcm.length / 2];
        ByteBuffer.wrap(pcm).order(ByteOrder.LITTLE_ENDIAN).asShortBuffer().get(samples);
        return samples;
    }

    private void send(byte[] datagram) {
        try {
            udp.send(new DatagramPacket(datagram, datagram.length, peer));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void read() {
        byte[] buffer = new byte[2048];
        while (!udp.isClosed()) {
            DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
            try {
                udp.receive(packet);
            } catch (IOException e) {
                return;
            }
            long at = System.nanoTime();
            byte[] data = Arrays.copyOf(packet.getData(), packet.getLength());
            int first = data.length == 0 ? -1 : data[0] & 0xFF;
            if (first >= 0 && first < 4) {
                stun.add(data);
            } else if (first >= 20 && first <= 63) {
                dtls.add(data);
            } else if (first >= 128 && first <= 191) {
                synchronized (early) {
                    if (inbound == null) {
                        early.add(new Received(data, at));
                        continue;
                    }
                }
                byte[] plain = inbound.unprotect(data, data.length);
                if (plain != null) {
                    rtp.add(new Received(plain, at));
                }
            }
        }
    }

    @Override
    public void close() {
        udp.close();
        reader.interrupt();
    }
}
