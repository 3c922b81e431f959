package dev.voiceagent.adapters.media.webrtc;

import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.Resampler;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.datagram.DatagramPacket;
import io.vertx.core.datagram.DatagramSocket;
import io.vertx.core.datagram.DatagramSocketOptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * One browser call's WebRTC peer, in Java on the call's Vert.x context: one UDP socket per call, ICE-lite
 * ({@link Stun}), DTLS-SRTP ({@link DtlsSrtpServer}, {@link Srtp}) and Opus ({@link OpusCodec}: libopus, or
 * Concentus where it does not load), so the session hears and speaks {@link #FORMAT} frames of 20 ms (the agent's
 * audio encoded at 16 kHz, the browser's decoded at 16 kHz, or with Concentus at 48 kHz and resampled).
 * <ul>
 * <li>The browser's packets arrive on the socket's handler (the call's loop): STUN checks answered, DTLS handed to the
 * handshake's thread, SRTP decrypted and decoded, lost packets concealed (up to five).</li>
 * <li>The agent's audio is queued by {@link #play} and sent one 20 ms Opus packet at a time against the clock; the RTP
 * clock runs on through silences (nothing is sent then), and a mark is reached when the audio queued before it was
 * sent (the browser plays on arrival).</li>
 * </ul>
 * Everything but the DTLS handshake runs on the call's loop and never blocks.
 */
final class WebRtcPeer implements MediaChannel {

    private static final System.Logger LOG = System.getLogger(WebRtcPeer.class.getName());
    static final AudioFormat FORMAT = AudioFormat.PCM_16K;
    private static final int FRAME_SAMPLES = FORMAT.sampleRate() / 50;
    private static final long FRAME_NANOS = 20_000_000L;
    /** Opus' RTP clock is 48 kHz whatever the audio's rate (RFC 7587). */
    private static final int RTP_TICKS = 960;
    /** Browsers check consent every 5 s or so (RFC 7675); after this long without one the peer is gone. */
    private static final long CONSENT_TIMEOUT_NANOS = 20_000_000_000L;
    private static final char[] ICE_CHARS =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/".toCharArray();

    /** What the peer tells the signaling socket, on the call's loop. */
    interface Events {
        /** DTLS is done: audio flows both ways from now on. */
        void connected();

        /** The peer is gone (failed to connect, closed by the browser, consent lost). */
        void ended(String why);

        void audio(byte[] frame);

        void marked(String name);

        void feedback(Map<String, Object> event);

        /** The session ends the call. */
        void closing(String reason);
    }

    private final Vertx vertx;
    private final Context context;
    private final Events events;
    private final List<InetAddress> hosts;
    private final int[] ports;
    private final String iceUfrag = random(8);
    private final String icePassword = random(24);
    private final long ssrc = ThreadLocalRandom.current().nextLong(1, 1L << 32);
    private DatagramSocket socket;
    private Sdp.Offer offer;
    private DtlsSrtpServer dtls;
    private final Set<InetSocketAddress> checked = new HashSet<>();
    /** The nominated address: read by the DTLS thread too. */
    private volatile InetSocketAddress remote;
    private long lastCheck;
    private Srtp inbound;
    private Srtp outbound;
    /** libopus at 16 kHz; or Concentus, whose 48 kHz is cut to 16 kHz by {@link #downsampler}. */
    private final Supplier<OpusCodec> codecs;
    private OpusCodec codec;
    private Resampler downsampler;
    private int lastSequence = -1;
    /** 120 ms at 48 kHz, Opus' longest packet at the highest rate a codec decodes at. */
    private final short[] decoded = new short[48 * 120];
    private boolean aligned;
    private final byte[] heard = new byte[FRAME_SAMPLES * 2];
    private int heardBytes;
    /** byte[] frames (20 ms, 16 kHz PCM) and String marks, in order. */
    private final Deque<Object> queue = new ArrayDeque<>();
    private long nextDue;
    private int sequence = ThreadLocalRandom.current().nextInt(1 << 16);
    private long timestamp = ThreadLocalRandom.current().nextLong(1L << 32);
    private boolean talking;
    private long timer = -1;
    private volatile boolean closed;
    /** Packets in and out, for the log at the end. */
    private long received;
    private long sent;

    /**
     * @param hosts the addresses the browser can reach this replica at (its host candidates)
     * @param ports the UDP ports to bind from, {first, last}; {0, 0} for any
     */
    WebRtcPeer(Vertx vertx, Context context, List<InetAddress> hosts, int[] ports, Events events) {
        this(vertx, context, hosts, ports, events, OpusCodec::open);
    }

    /** With the call's codec from {@code codecs} (tests: Concentus where libopus would be chosen). */
    WebRtcPeer(Vertx vertx, Context context, List<InetAddress> hosts, int[] ports, Events events,
            Supplier<OpusCodec> codecs) {
        this.vertx = vertx;
        this.context = context;
        this.hosts = hosts;
        this.ports = ports;
        this.events = events;
        this.codecs = codecs;
    }

    /** The answer to the browser's offer, once this call's socket is bound; a refused offer fails with the reason. */
    Future<String> answer(String sdp) {
        try {
            offer = Sdp.parse(sdp);
        } catch (IllegalArgumentException e) {
            return Future.failedFuture(e);
        }
        return bind(0).map(bound -> {
            socket = bound;
            socket.handler(this::datagram);
            socket.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "webrtc socket: {0}", e.toString()));
            dtls = new DtlsSrtpServer(this::sendRaw, offer.fingerprint, new DtlsSrtpServer.Listener() {
                @Override
                public void secured(DtlsSrtpServer.Keys keys) {
                    context.runOnContext(v -> secure(keys));
                }

                @Override
                public void failed(String why) {
                    LOG.log(System.Logger.Level.INFO, "webrtc call not connected: {0}", why);
                    context.runOnContext(v -> end("webrtc_connection_failed"));
                }

                @Override
                public void closed() {
                    context.runOnContext(v -> end("webrtc_connection_closed"));
                }
            });
            timer = vertx.setPeriodic(10, t -> tick());
            List<InetSocketAddress> candidates = new ArrayList<>();
            for (InetAddress host : hosts) {
                candidates.add(new InetSocketAddress(host, bound.localAddress().port()));
            }
            return Sdp.answer(offer, iceUfrag, icePassword, DtlsSrtpServer.identity().fingerprint, candidates,
                    ssrc, ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE));
        });
    }

    /**
     * A UDP socket on a port of the range (a few tries at random ports), or on any port. Its receive buffer is the
     * system's (about 200 kB on Linux, seconds of a call's packets): Vert.x also sizes each read's buffer by that
     * option, so a 256 kB one had every 200-byte packet read into a fresh 256 kB direct buffer (beyond the pool's
     * chunks: allocated, zeroed and freed each time), where Netty's default reads into a pooled 2 kB one.
     */
    private Future<DatagramSocket> bind(int attempt) {
        DatagramSocket candidate = vertx.createDatagramSocket(new DatagramSocketOptions());
        int port = ports[0] == 0 ? 0 : ports[0] + ThreadLocalRandom.current().nextInt(ports[1] - ports[0] + 1);
        return candidate.listen(port, "0.0.0.0").recover(failure -> {
            candidate.close();
            return ports[0] != 0 && attempt < 20 ? bind(attempt + 1) : Future.failedFuture(failure);
        });
    }

    // ---- the browser's packets (the call's loop) ----

    private void datagram(DatagramPacket packet) {
        if (closed) {
            return;
        }
        byte[] data = packet.data().getBytes();
        if (data.length == 0) {
            return;
        }
        int first = data[0] & 0xFF;
        InetSocketAddress from = new InetSocketAddress(packet.sender().host(), packet.sender().port());
        if (first < 4) {
            check(data, from);
        } else if (first >= 20 && first <= 63) {
            if (checked.contains(from)) {
                dtls.received(data);
            }
        } else if (first >= 128 && first <= 191 && inbound != null && checked.contains(from)) {
            rtp(data);
        }
    }

    /** An ICE connectivity check: answered when it is for this peer; its address then the call's, once nominated. */
    private void check(byte[] data, InetSocketAddress from) {
        if (!Stun.isStun(data, data.length)) {
            return;
        }
        Stun.Binding binding = Stun.binding(data, data.length, iceUfrag, icePassword);
        if (binding == null) {
            return;
        }
        if (checked.isEmpty()) {
            dtls.start("webrtc-dtls"); // its handshake's time runs from the first check: the browser is there
        }
        if (checked.size() < 16) {
            checked.add(from);
        }
        if (remote == null || binding.useCandidate) {
            remote = from;
        }
        lastCheck = System.nanoTime();
        socket.send(Buffer.buffer(Stun.success(binding.transaction, from, icePassword)), from.getPort(),
                from.getAddress().getHostAddress());
    }

    private void rtp(byte[] data) {
        if ((data[1] & 0x7F) >= 72 && (data[1] & 0x7F) <= 79) {
            return; // RTCP (RFC 5761): the browser's reports, not read
        }
        byte[] packet = inbound.unprotect(data, data.length);
        if (packet == null || (packet[1] & 0x7F) != offer.audio.opus) {
            return;
        }
        received++;
        int seq = ((packet[2] & 0xFF) << 8) | (packet[3] & 0xFF);
        int gap = lastSequence < 0 ? 1 : (seq - lastSequence) & 0xFFFF;
        if (gap == 0 || gap > 0x8000) {
            return; // a duplicate or a late packet: its time has been concealed already
        }
        lastSequence = seq;
        try {
            for (int lost = Math.min(gap - 1, 5); lost > 0; lost--) {
                heard(codec.conceal(decoded));
            }
            int header = Srtp.headerLength(packet, packet.length);
            int end = packet.length;
            if ((packet[0] & 0x20) != 0) {
                end -= packet[end - 1] & 0xFF; // padding
            }
            if (header >= 0 && end > header) {
                heard(codec.decode(packet, header, end - header, decoded));
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "an Opus packet not decoded: {0}", e.toString());
        }
    }

    /** Decoded samples to the session in 20 ms frames. */
    private void heard(int samples) {
        short[] cut = decoded;
        int count = samples;
        if (downsampler != null) {
            cut = downsampler.process(Arrays.copyOf(decoded, samples));
            count = cut.length;
            if (!aligned && count > 0) {
                // the resampler holds its filter's half back (about 1 ms): its first output is that much short of a
                // packet's. Leading silence of that length makes every later frame end with its packet, rather than
                // wait a packet (20 ms) for its last millisecond.
                aligned = true;
                int behind = (samples * FORMAT.sampleRate() / codec.decodeRate() - count) % FRAME_SAMPLES;
                heardBytes = Math.max(0, behind) * 2;
            }
        }
        for (int i = 0; i < count; i++) {
            short sample = cut[i];
            heard[heardBytes++] = (byte) sample;
            heard[heardBytes++] = (byte) (sample >> 8);
            if (heardBytes == heard.length) {
                heardBytes = 0;
                events.audio(heard.clone());
            }
        }
    }

    private void secure(DtlsSrtpServer.Keys keys) {
        if (closed || inbound != null) {
            return;
        }
        inbound = new Srtp(keys.clientKey, keys.clientSalt);
        outbound = new Srtp(keys.serverKey, keys.serverSalt);
        try {
            codec = codecs.get();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "webrtc call without Opus: {0}", e.toString());
            end("pipeline_error");
            return;
        }
        downsampler = codec.decodeRate() == FORMAT.sampleRate() ? null
                : new Resampler(codec.decodeRate(), FORMAT.sampleRate());
        nextDue = System.nanoTime();
        LOG.log(System.Logger.Level.DEBUG, "webrtc call connected from {0}", remote);
        events.connected();
    }

    // ---- the agent's audio, every 10 ms on the call's loop ----

    private void tick() {
        if (closed) {
            return;
        }
        long now = System.nanoTime();
        if (outbound == null) {
            return; // not connected yet: the agent's audio waits in the queue
        }
        if (now - lastCheck > CONSENT_TIMEOUT_NANOS) {
            end("webrtc_connection_lost");
            return;
        }
        sendDue(now);
    }

    /** The frames due by {@code now}: one every 20 ms, none in a burst after the loop was held up. */
    private void sendDue(long now) {
        if (now - nextDue > 5 * FRAME_NANOS) {
            nextDue = now; // the loop was held up, or the agent was silent: start again from now
        }
        while (now >= nextDue && !closed) {
            nextDue += FRAME_NANOS;
            send();
        }
    }

    /** The next 20 ms: the marks before the next frame reached, the frame sent (nothing in a silence). */
    private void send() {
        Object next = queue.pollFirst();
        while (next instanceof String mark) {
            events.marked(mark);
            next = queue.pollFirst();
        }
        if (next == null) {
            talking = false;
        } else {
            byte[] frame = (byte[]) next;
            short[] pcm = new short[FRAME_SAMPLES];
            for (int i = 0; i < FRAME_SAMPLES && 2 * i + 1 < frame.length; i++) {
                pcm[i] = (short) ((frame[2 * i] & 0xFF) | frame[2 * i + 1] << 8);
            }
            byte[] packet = new byte[12 + 1275];
            try {
                int size = codec.encode(pcm, packet, 12, 1275);
                packet[0] = (byte) 0x80;
                packet[1] = (byte) ((talking ? 0 : 0x80) | offer.audio.opus);
                packet[2] = (byte) (sequence >> 8);
                packet[3] = (byte) sequence;
                for (int i = 0; i < 4; i++) {
                    packet[4 + i] = (byte) (timestamp >>> (24 - 8 * i));
                    packet[8 + i] = (byte) (ssrc >>> (24 - 8 * i));
                }
                sendRaw(outbound.protect(Arrays.copyOf(packet, 12 + size)));
                sequence = (sequence + 1) & 0xFFFF;
                talking = true;
                sent++;
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "a frame not encoded: {0}", e.toString());
            }
        }
        timestamp = (timestamp + RTP_TICKS) & 0xFFFFFFFFL;
        // marks right after the frame: reached as it goes out
        while (queue.peekFirst() instanceof String mark) {
            queue.pollFirst();
            events.marked(mark);
        }
    }

    /** A datagram to the browser's nominated address (any thread: Vert.x hands it to the socket's loop). */
    private void sendRaw(byte[] datagram) {
        InetSocketAddress to = remote;
        if (to != null && !closed) {
            socket.send(Buffer.buffer(datagram), to.getPort(), to.getAddress().getHostAddress());
        }
    }

    // ---- MediaChannel (the call's loop) ----

    @Override
    public AudioFormat format() {
        return FORMAT;
    }

    @Override
    public void play(byte[] frame) {
        queue.addLast(frame);
        if (!talking && queue.size() == 1 && outbound != null && !closed) {
            long now = System.nanoTime();
            startSpurt(now);
            sendDue(now); // a talk spurt starts now rather than at the next tick
        }
    }

    /**
     * A talk spurt starts now, not at the next 20 ms slot of the clock the last one left (up to 20 ms later, and then
     * at a 10 ms tick: 15 ms on average, 30 at worst, before the caller hears the answer): the slots start again from
     * now and the RTP clock goes back by what of the current slot had not passed (less than one packet's 960 ticks;
     * at least one empty slot lies between the last spurt and this one, so the timestamps still increase by 20 ms or
     * more), so the browser times the new packet by when it was spoken.
     */
    private void startSpurt(long now) {
        long ahead = nextDue - now;
        if (ahead > 0 && ahead <= FRAME_NANOS) {
            timestamp = (timestamp - ahead * RTP_TICKS / FRAME_NANOS) & 0xFFFFFFFFL;
            nextDue = now;
        }
    }

    @Override
    public void mark(String name) {
        queue.addLast(name);
    }

    @Override
    public void clear() {
        List<String> marks = new ArrayList<>();
        for (Object next = queue.pollFirst(); next != null; next = queue.pollFirst()) {
            if (next instanceof String mark) {
                marks.add(mark);
            }
        }
        // as a carrier: the cleared audio's marks come back at once, after this call returns
        context.runOnContext(v -> marks.forEach(events::marked));
    }

    @Override
    public void feedback(Map<String, Object> event) {
        events.feedback(event);
    }

    @Override
    public void close(String reason) {
        events.closing(reason);
    }

    private void end(String why) {
        if (!closed) {
            events.ended(why);
        }
    }

    /** The call's codec, once DTLS is done (for tests). */
    OpusCodec codec() {
        return codec;
    }

    /** Frees the socket, the timer, the handshake's thread and the codec (the call's loop; never blocks). */
    void dispose() {
        if (closed) {
            return;
        }
        closed = true;
        LOG.log(System.Logger.Level.DEBUG, "webrtc call over: {0} packets in, {1} out", received, sent);
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
        if (dtls != null) {
            dtls.close();
        }
        if (socket != null) {
            socket.close();
        }
        if (codec != null) {
            codec.close(); // its native memory: nothing on this loop uses it once closed is set
        }
    }

    private static String random(int length) {
        SecureRandom random = new SecureRandom();
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = ICE_CHARS[random.nextInt(ICE_CHARS.length)];
        }
        return new String(chars);
    }
}
