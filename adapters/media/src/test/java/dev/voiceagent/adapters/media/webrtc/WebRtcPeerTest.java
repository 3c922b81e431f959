package dev.voiceagent.adapters.media.webrtc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.voiceagent.domain.audio.AudioFormat;
import io.github.jaredmdobson.concentus.OpusDecoder;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One WebRTC peer on a real Vert.x context and UDP socket, the browser played by {@link BrowserPeer} (ICE checks, a
 * DTLS client, SRTP and Opus in this process): the answer to an offer, connectivity checks answered only with the
 * answer's password, DTLS then the caller's Opus heard as 20 ms frames with its packet (a lost one concealed, a late
 * one dropped), the agent's audio sent as one Opus packet every 20 ms (waiting for DTLS), marks reached as their audio
 * goes out, and a clear that returns the pending marks at once.
 */
class WebRtcPeerTest {

    private static Vertx vertx;
    private Context context;
    private final Events events = new Events();
    private WebRtcPeer peer;
    private BrowserPeer browser;

    /** What the peer tells the signaling socket, each with whether it came on the call's loop. */
    static final class Events implements WebRtcPeer.Events {
        final CompletableFuture<Long> connected = new CompletableFuture<>();
        final BlockingQueue<String> ended = new LinkedBlockingQueue<>();
        final BlockingQueue<byte[]> audio = new LinkedBlockingQueue<>();
        /** The marks reached, with when (System.nanoTime). */
        final BlockingQueue<Object[]> marks = new LinkedBlockingQueue<>();
        final List<String> offLoop = new CopyOnWriteArrayList<>();

        private void onLoop(String event) {
            if (!Context.isOnEventLoopThread()) {
                offLoop.add(event);
            }
        }

        @Override
        public void connected() {
            onLoop("connected");
            connected.complete(System.nanoTime());
        }

        @Override
        public void ended(String why) {
            onLoop("ended");
            ended.add(why);
        }

        @Override
        public void audio(byte[] frame) {
            onLoop("audio");
            audio.add(frame);
        }

        @Override
        public void marked(String name) {
            onLoop("marked");
            marks.add(new Object[] {name, System.nanoTime()});
        }

        @Override
        public void feedback(Map<String, Object> event) {
        }

        @Override
        public void closing(String reason) {
            ended.add("closing " + reason);
        }

        String nextMark() throws InterruptedException {
            Object[] mark = marks.poll(5, TimeUnit.SECONDS);
            assertThat(mark).as("a mark reached").isNotNull();
            return (String) mark[0];
        }
    }

    @BeforeAll
    static void vertx() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void closeVertx() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @BeforeEach
    void peer() throws Exception {
        context = vertx.getOrCreateContext();
        peer = onLoop(() -> new WebRtcPeer(vertx, context, List.of(InetAddress.getLoopbackAddress()),
                new int[] {0, 0}, events));
        browser = new BrowserPeer(DtlsSrtpServer.generate());
    }

    @AfterEach
    void close() throws Exception {
        onLoop(() -> {
            peer.dispose();
            return null;
        });
        browser.close();
        assertThat(events.offLoop).as("events off the call's loop").isEmpty();
    }

    /** Runs {@code task} on the call's loop and waits for its value. */
    private <T> T onLoop(Supplier<T> task) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        context.runOnContext(v -> {
            try {
                result.complete(task.get());
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result.get(5, TimeUnit.SECONDS);
    }

    private void onLoop(Runnable task) throws Exception {
        onLoop(() -> {
            task.run();
            return null;
        });
    }

    private String answer(String offer) throws Exception {
        CompletableFuture<String> sdp = new CompletableFuture<>();
        context.runOnContext(v -> {
            Future<String> answer = peer.answer(offer);
            answer.onSuccess(sdp::complete).onFailure(sdp::completeExceptionally);
        });
        return sdp.get(5, TimeUnit.SECONDS);
    }

    /** Answered, checked and DTLS done: audio flows both ways. */
    private void connect() throws Exception {
        browser.answered(answer(browser.offer()));
        browser.check();
        assertThat(browser.stun.poll(5, TimeUnit.SECONDS)).as("the check answered").isNotNull();
        browser.handshake();
        events.connected.get(5, TimeUnit.SECONDS);
    }

    private static byte[] pcm(short[] samples) {
        ByteBuffer bytes = ByteBuffer.allocate(samples.length * 2).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asShortBuffer().put(samples);
        return bytes.array();
    }

    @Test
    void theAnswerIsIceLiteWithThisPeersCandidateAndCertificate() throws Exception {
        String answer = answer(browser.offer());

        assertThat(answer).contains("a=ice-lite", "a=setup:passive", "a=rtpmap:111 opus/48000/2",
                "a=fingerprint:" + DtlsSrtpServer.identity().fingerprint, "a=end-of-candidates");
        assertThat(answer).containsPattern("a=candidate:1 1 udp \\d+ 127\\.0\\.0\\.1 \\d+ typ host");
        assertThat(peer.format()).isEqualTo(AudioFormat.PCM_16K);
    }

    @Test
    void anOfferWithoutOpusIsRefusedWithTheReason() throws Exception {
        String video = "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\n"
                + "a=rtpmap:96 VP8/90000\r\n";

        assertThat(catchThrowable(() -> answer(video)))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no audio with Opus");
    }

    @Test
    void onlyChecksWithTheAnswersPasswordAreAnswered() throws Exception {
        browser.answered(answer(browser.offer()));

        browser.check("not-the-password-of-the-answer");
        assertThat(browser.stun.poll(300, TimeUnit.MILLISECONDS)).as("a check with another password").isNull();

        byte[] transaction = browser.check();
        byte[] success = browser.stun.poll(5, TimeUnit.SECONDS);
        assertThat(success).isNotNull();
        assertThat(ByteBuffer.wrap(success).getShort(0)).as("a binding success").isEqualTo((short) 0x0101);
        assertThat(Arrays.copyOfRange(success, 8, 20)).as("for the check's transaction")
                .isEqualTo(transaction);
    }

    @Test
    void theCallersOpusIsHeardAs20MsFramesEachWithItsPacket() throws Exception {
        connect();
        assertThat(peer.codec()).isInstanceOf(LibOpus.available() ? LibOpus.class : OpusCodec.Concentus.class);
        hearsTheCallersTone();
        browser.report(); // RTCP: not audio
        assertThat(events.audio.poll(200, TimeUnit.MILLISECONDS)).as("a frame more than the packets").isNull();
    }

    @Test
    void onConcentusTooTheCallersOpusIsHeardAs20MsFrames() throws Exception {
        WebRtcPeer libopus = peer;
        onLoop(() -> {
            libopus.dispose();
            return null;
        });
        peer = onLoop(() -> new WebRtcPeer(vertx, context, List.of(InetAddress.getLoopbackAddress()),
                new int[] {0, 0}, events, OpusCodec.Concentus::new)); // decoded at 48 kHz and resampled
        connect();
        assertThat(peer.codec()).isInstanceOf(OpusCodec.Concentus.class);
        hearsTheCallersTone();
    }

    /** 400 ms of the browser's tone, each packet heard as one 20 ms frame, the last at the tone's level and pitch. */
    private void hearsTheCallersTone() throws Exception {
        List<byte[]> heard = new ArrayList<>();
        for (short[] frame : BrowserPeer.tone(400)) {
            browser.speak(frame);
            byte[] pcm = events.audio.poll(5, TimeUnit.SECONDS);
            assertThat(pcm).as("the frame of packet %d", heard.size()).isNotNull().hasSize(640);
            heard.add(pcm);
        }
        short[] last = BrowserPeer.samples(heard.getLast());
        assertThat(BrowserPeer.rms(last)).as("the tone's level").isGreaterThan(2_000);
        assertThat(BrowserPeer.crossingsPerSecond(last) / 2).as("the tone's pitch").isBetween(380.0, 500.0);
    }

    @Test
    void aLostPacketIsConcealedAndALateOneDropped() throws Exception {
        connect();
        short[][] tone = BrowserPeer.tone(100);

        browser.speak(tone[0], 10);
        browser.speak(tone[1], 11);
        browser.speak(tone[3], 13); // 12 lost: its 20 ms concealed
        browser.speak(tone[2], 12); // and late: its time has been played
        browser.speak(tone[3], 13); // a repeat
        browser.speak(tone[4], 14);

        List<byte[]> heard = new ArrayList<>();
        for (byte[] frame = events.audio.poll(2, TimeUnit.SECONDS); frame != null;
                frame = events.audio.poll(300, TimeUnit.MILLISECONDS)) {
            heard.add(frame);
        }
        assertThat(heard).as("10, 11, a concealed 12, 13, 14").hasSize(5);
    }

    @Test
    void theAgentsAudioWaitsForDtlsThenGoesOutOnePacketEvery20Ms() throws Exception {
        short[][] tone = BrowserPeer.tone(200);
        browser.answered(answer(browser.offer()));
        onLoop(() -> { // the greeting is ready before the browser is connected
            for (short[] frame : tone) {
                peer.play(pcm(frame));
            }
            peer.mark("greeting");
        });
        assertThat(browser.nextRtp(300)).as("nothing before DTLS").isNull();

        browser.check();
        browser.handshake();
        List<BrowserPeer.Received> packets = new ArrayList<>();
        for (int i = 0; i < tone.length; i++) {
            BrowserPeer.Received packet = browser.nextRtp(5_000);
            assertThat(packet).as("packet %d", i).isNotNull();
            packets.add(packet);
        }

        assertThat(events.nextMark()).isEqualTo("greeting");
        assertThat(browser.nextRtp(200)).as("nothing in the silence after").isNull();
        BrowserPeer.Received first = packets.getFirst();
        assertThat(first.payloadType()).isEqualTo(BrowserPeer.OPUS);
        assertThat(first.marker()).as("a talk spurt's first packet").isTrue();
        for (int i = 1; i < packets.size(); i++) {
            BrowserPeer.Received packet = packets.get(i);
            assertThat(packet.marker()).isFalse();
            assertThat(packet.sequence()).isEqualTo((first.sequence() + i) & 0xFFFF);
            assertThat(packet.timestamp()).isEqualTo((first.timestamp() + 960L * i) & 0xFFFFFFFFL);
            assertThat(packet.ssrc()).isEqualTo(first.ssrc());
        }
        long spreadMs = (packets.getLast().at() - first.at()) / 1_000_000;
        assertThat(spreadMs).as("ten packets, 20 ms apart").isBetween(150L, 1_000L);

        OpusDecoder decoder = new OpusDecoder(16_000, 1);
        short[] decoded = null;
        for (BrowserPeer.Received packet : packets) {
            decoded = BrowserPeer.decode(decoder, packet.payload());
        }
        assertThat(BrowserPeer.rms(decoded)).as("the agent's tone heard").isGreaterThan(2_000);
        assertThat(BrowserPeer.crossingsPerSecond(decoded) / 2).isBetween(380.0, 500.0);
    }

    @Test
    void aTalkSpurtAfterASilenceGoesOutAtOnceTimedByWhenItWasSpoken() throws Exception {
        // the codec compiled first, as a replica's warm-up does: an interpreted encoder takes ~8 ms a frame
        new WebRtcWarmUp().exercise(0, 15, System.nanoTime() + 20_000_000_000L);
        connect();
        short[][] tone = BrowserPeer.tone(40);
        onLoop(() -> {
            for (short[] frame : tone) {
                peer.play(pcm(frame));
            }
        });
        BrowserPeer.Received last = null;
        for (int i = 0; i < tone.length; i++) {
            last = browser.nextRtp(5_000);
            assertThat(last).as("packet %d", i).isNotNull();
        }
        assertThat(browser.nextRtp(150)).as("a silence").isNull();
        // spurts start at every offset of the 20 ms slots the first one left: each goes out as it is played (it
        // waited for the next slot, then for a 10 ms tick: 15 ms on average)
        List<Long> delays = new ArrayList<>();
        for (int spurt = 0; spurt < 8; spurt++) {
            Thread.sleep(3 + spurt * 5L);
            long[] played = new long[1];
            onLoop(() -> {
                played[0] = System.nanoTime();
                peer.play(pcm(tone[0]));
            });
            BrowserPeer.Received first = browser.nextRtp(5_000);
            assertThat(first).isNotNull();
            assertThat(first.marker()).as("a talk spurt's first packet").isTrue();
            delays.add((first.at() - played[0]) / 1_000_000);
            long ticks = (first.timestamp() - last.timestamp()) & 0xFFFFFFFFL;
            long passedTicks = (first.at() - last.at()) * 48 / 1_000_000;
            assertThat(ticks).as("the RTP clock moved on by the time that passed (48 kHz), at least a packet's")
                    .isGreaterThan(960).isBetween(passedTicks - 960, passedTicks + 960);
            assertThat(first.sequence()).isEqualTo((last.sequence() + 1) & 0xFFFF);
            last = first;
            assertThat(browser.nextRtp(100)).isNull();
        }
        assertThat(delays).as("ms from play to the browser").allSatisfy(ms -> assertThat(ms).isLessThan(15));
        assertThat(delays.stream().sorted().toList().get(delays.size() / 2)).as("the median of %s", delays).isLessThan(6);
    }

    @Test
    void aMarkIsReachedAsTheAudioBeforeItGoesOut() throws Exception {
        connect();
        short[][] tone = BrowserPeer.tone(100);
        long[] played = new long[1];

        onLoop(() -> {
            played[0] = System.nanoTime();
            for (short[] frame : tone) {
                peer.play(pcm(frame));
            }
            peer.mark("m1");
        });

        Object[] mark = events.marks.poll(5, TimeUnit.SECONDS);
        assertThat(mark).isNotNull();
        assertThat(mark[0]).isEqualTo("m1");
        assertThat(((long) mark[1] - played[0]) / 1_000_000).as("five frames: the fifth 80 ms after the first")
                .isBetween(60L, 1_000L);
        List<BrowserPeer.Received> packets = new ArrayList<>();
        for (BrowserPeer.Received packet = browser.nextRtp(1_000); packet != null; packet = browser.nextRtp(200)) {
            packets.add(packet);
        }
        assertThat(packets).as("the five frames before the mark, no more").hasSize(5);
    }

    @Test
    void aClearDropsTheQueuedAudioAndReturnsItsMarksAtOnce() throws Exception {
        connect();
        short[][] tone = BrowserPeer.tone(1_000);
        onLoop(() -> {
            for (short[] frame : tone) {
                peer.play(pcm(frame));
            }
            peer.mark("a");
            for (short[] frame : tone) {
                peer.play(pcm(frame));
            }
            peer.mark("b");
        });
        assertThat(browser.nextRtp(5_000)).isNotNull();

        long[] cleared = new long[1];
        onLoop(() -> {
            cleared[0] = System.nanoTime();
            peer.clear();
        });

        assertThat(events.nextMark()).isEqualTo("a");
        Object[] b = events.marks.poll(5, TimeUnit.SECONDS);
        assertThat(b).isNotNull();
        assertThat(b[0]).isEqualTo("b");
        assertThat(((long) b[1] - cleared[0]) / 1_000_000).as("at once, not as 2 s of audio plays").isLessThan(500L);
        Thread.sleep(100);
        browser.rtp.clear();
        assertThat(browser.nextRtp(300)).as("nothing after the clear").isNull();
    }

    @Test
    void aBrowserWhoseCertificateIsNotItsOffersIsNotConnected() throws Exception {
        // the offer names another certificate than the one the browser shows
        browser.answered(answer(browser.offer().replace(browser.identity.fingerprint,
                DtlsSrtpServer.generate().fingerprint)));
        browser.check();
        assertThat(browser.stun.poll(5, TimeUnit.SECONDS)).isNotNull();

        assertThat(catchThrowable(browser::handshake)).isNotNull();

        assertThat(events.ended.poll(10, TimeUnit.SECONDS)).isEqualTo("webrtc_connection_failed");
        assertThat(events.connected).isNotDone();
    }
}
