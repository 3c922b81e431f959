package dev.voiceagent.adapters.media.webrtc;

import dev.voiceagent.domain.audio.Pcm16;
import io.github.jaredmdobson.concentus.OpusApplication;
import io.github.jaredmdobson.concentus.OpusEncoder;
import io.github.jaredmdobson.concentus.OpusException;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.datagram.DatagramPacket;
import io.vertx.core.datagram.DatagramSocket;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A browser's side of a WebRTC call, in this process: the reference dashboard's signaling (offer, answer), an ICE
 * check of the answer's first host candidate (USE-CANDIDATE, consent every 2.5 s), {@link DtlsSrtpClient} (a
 * certificate, use_srtp), then one Opus packet over SRTP every 20 ms both ways. What it sends comes from its
 * {@link Audio}, which is also told when each agent packet came (not decoded: the peer sends nothing in silence, so a
 * packet is audio). The replica's warm-up rehearses WebRTC calls with it; the voice benchmark's WebRTC callers are it.
 */
public final class WebRtcDialer implements AutoCloseable {

    /** What the dialer says and hears. */
    public interface Audio {
        /** The Opus packet to send now (every 20 ms once connected). */
        byte[] next(long now);

        /** An agent packet came (epoch ms). */
        void heard(long now);
    }

    private static final Pattern CANDIDATE = Pattern.compile("a=candidate:\\S+ 1 udp \\d+ (\\S+) (\\d+) typ host");
    /** One certificate for every dialer of this process (a browser keeps its own for a while too). */
    private static final DtlsSrtpServer.Identity IDENTITY = DtlsSrtpServer.generate();
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Vertx vertx;
    private final Audio audio;
    private final WebSocketClient client;
    private final String ufrag = "c" + Long.toString(RANDOM.nextLong() & Long.MAX_VALUE, 36);
    private final String password = "p" + Long.toString(RANDOM.nextLong() & Long.MAX_VALUE, 36)
            + "xxxxxxxxxxxxxxxxxxxxxx";
    private final BlockingQueue<byte[]> dtlsInbox = new LinkedBlockingQueue<>();
    /** The signaling messages received, in order. */
    public final List<JsonObject> events = new ArrayList<>();
    private final CompletableFuture<String> closed = new CompletableFuture<>();
    /** When DTLS was done (epoch ms): audio flows from then. */
    public final CompletableFuture<Long> connected = new CompletableFuture<>();
    /** When the offer went, the answer came, the first check was answered (epoch ms; 0: not yet). */
    public volatile long offered;
    public volatile long answered;
    public volatile long checked;
    private WebSocket signaling;
    private DatagramSocket udp;
    private String serverHost;
    private int serverPort;
    private String serverUfrag;
    private String serverPassword;
    private boolean checking;
    private volatile Srtp outbound;
    private volatile Srtp inbound;
    private int sequence;
    private long timestamp;
    private long timer;
    private long consent;

    public WebRtcDialer(Vertx vertx, Audio audio) {
        this.vertx = vertx;
        this.audio = audio;
        this.client = vertx.createWebSocketClient();
    }

    /** Opens the signaling socket at {@code url}, sends the offer and connects once answered (blocking: no loop). */
    public WebRtcDialer connect(String url) throws Exception {
        URI uri = URI.create(url);
        udp = vertx.createDatagramSocket();
        udp.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        udp.handler(this::datagram);
        signaling = client.connect(new WebSocketConnectOptions().setHost(uri.getHost()).setPort(uri.getPort())
                .setURI(uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery())))
                .map(ws -> {
                    ws.textMessageHandler(text -> message(new JsonObject(text)));
                    ws.closeHandler(v -> {
                        vertx.cancelTimer(timer);
                        vertx.cancelTimer(consent);
                        closed.complete(ws.closeReason());
                    });
                    return ws;
                }).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        String offer = String.join("\r\n", "v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
                "m=audio 9 UDP/TLS/RTP/SAVPF 111", "c=IN IP4 0.0.0.0", "a=ice-ufrag:" + ufrag,
                "a=ice-pwd:" + password, "a=fingerprint:" + IDENTITY.fingerprint, "a=setup:actpass", "a=mid:0",
                "a=sendrecv", "a=rtcp-mux", "a=rtpmap:111 opus/48000/2", "a=fmtp:111 minptime=10;useinbandfec=1",
                "") + "\r\n";
        offered = System.currentTimeMillis();
        signaling.writeTextMessage(new JsonObject().put("type", "offer").put("payload", new JsonObject()
                .put("pc_id", "dialer-" + ufrag).put("sdp", offer).put("type", "offer")).encode());
        timer = vertx.setPeriodic(20, t -> tick());
        return this;
    }

    private synchronized void message(JsonObject m) {
        events.add(m);
        if ("answer".equals(m.getString("type"))) {
            answered = System.currentTimeMillis();
            String sdp = m.getJsonObject("payload").getString("sdp");
            Matcher candidate = CANDIDATE.matcher(sdp);
            if (!candidate.find()) {
                throw new IllegalStateException("no host candidate in the answer");
            }
            serverHost = candidate.group(1);
            serverPort = Integer.parseInt(candidate.group(2));
            serverUfrag = attribute(sdp, "ice-ufrag");
            serverPassword = attribute(sdp, "ice-pwd");
            check();
            consent = vertx.setPeriodic(2_500, t -> check());
        }
    }

    private static String attribute(String sdp, String name) {
        Matcher m = Pattern.compile("a=" + name + ":(\\S+)").matcher(sdp);
        if (!m.find()) {
            throw new IllegalStateException("no " + name + " in the answer");
        }
        return m.group(1);
    }

    /** A Binding request to the service: USERNAME, ICE-CONTROLLING, USE-CANDIDATE, MESSAGE-INTEGRITY, FINGERPRINT. */
    private void check() {
        udp.send(Buffer.buffer(Stun.bindingRequest(serverUfrag + ":" + ufrag, serverPassword)), serverPort, serverHost);
    }

    private void datagram(DatagramPacket packet) {
        byte[] data = packet.data().getBytes();
        int first = data.length == 0 ? -1 : data[0] & 0xFF;
        if (first >= 0 && first < 4) {
            if (data.length >= 20 && ByteBuffer.wrap(data).getShort(0) == 0x0101 && !checking) {
                checked = System.currentTimeMillis();
                checking = true; // the pair works: DTLS next, this side the client (a=setup:actpass answered passive)
                Thread.ofVirtual().name("dialer-dtls").start(this::handshake);
            }
        } else if (first >= 20 && first <= 63) {
            dtlsInbox.add(data);
        } else if (first >= 128 && first <= 191 && inbound != null) {
            if (inbound.unprotect(data, data.length) != null) {
                audio.heard(System.currentTimeMillis());
            }
        }
    }

    private void handshake() {
        try {
            DtlsSrtpServer.Keys keys = new DtlsSrtpClient(IDENTITY).connect(WebRtcWarmUp.transport(dtlsInbox,
                    datagram -> udp.send(Buffer.buffer(datagram), serverPort, serverHost)));
            inbound = new Srtp(keys.serverKey, keys.serverSalt);
            outbound = new Srtp(keys.clientKey, keys.clientSalt);
            connected.complete(System.currentTimeMillis());
        } catch (IOException | RuntimeException e) {
            connected.completeExceptionally(e);
        }
    }

    /** 20 ms frames of 16 kHz PCM as Opus packets, as a browser encodes its microphone (one encoder through them). */
    public static List<byte[]> opus(List<byte[]> frames) {
        try {
            OpusEncoder encoder = new OpusEncoder(16_000, 1, OpusApplication.OPUS_APPLICATION_VOIP);
            encoder.setBitrate(24_000);
            List<byte[]> packets = new ArrayList<>();
            byte[] out = new byte[1275];
            for (byte[] frame : frames) {
                packets.add(Arrays.copyOf(out, encoder.encode(Pcm16.samples(frame), 0, 320, out, 0, 1275)));
            }
            return packets;
        } catch (OpusException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every 20 ms once connected: the audio's next Opus packet over SRTP. */
    private synchronized void tick() {
        Srtp srtp = outbound;
        if (srtp == null) {
            return;
        }
        byte[] opus = audio.next(System.currentTimeMillis());
        byte[] packet = new byte[12 + opus.length];
        packet[0] = (byte) 0x80;
        packet[1] = 111;
        packet[2] = (byte) (sequence >> 8);
        packet[3] = (byte) sequence;
        ByteBuffer.wrap(packet).putInt(4, (int) timestamp).putInt(8, 0x0BE0C0DE);
        System.arraycopy(opus, 0, packet, 12, opus.length);
        sequence = (sequence + 1) & 0xFFFF;
        timestamp += 960;
        udp.send(Buffer.buffer(srtp.protect(packet)), serverPort, serverHost);
    }

    /** A signaling message to the service. */
    public synchronized void send(JsonObject message) {
        signaling.writeTextMessage(message.encode());
    }

    /** Completes with the signaling socket's close reason. */
    public CompletableFuture<String> closed() {
        return closed;
    }

    /** Hangs up: the signaling socket closed, the UDP socket with it. */
    @Override
    public void close() {
        vertx.cancelTimer(timer);
        vertx.cancelTimer(consent);
        if (signaling != null && !signaling.isClosed()) {
            signaling.close();
        }
        if (udp != null) {
            udp.close();
        }
        client.close();
    }
}
