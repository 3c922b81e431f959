package dev.voiceagent.adapters.media;

import static dev.voiceagent.adapters.media.ScriptedStart.ADMITTED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.media.carrier.CarrierDialect;
import dev.voiceagent.adapters.media.carrier.CarrierDialects;
import dev.voiceagent.adapters.media.carrier.CarrierEvent;
import dev.voiceagent.adapters.media.carrier.CarrierFrame;
import dev.voiceagent.adapters.media.carrier.TwilioDialect;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import io.vertx.core.Vertx;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The carriers' media socket on a real WebSocket (Vert.x, localhost), the carrier played by the test in each dialect,
 * the session scripted: the dialect chosen by the start, what the session hears and in which order, the frames its
 * audio, marks and clear become, and how the media ends (a stop, a socket lost without one, the session's close).
 */
class CarrierMediaSocketTest {

    private static final String TWILIO_SID = "MZ18ad3ab5a668481ce02b83e7395059f0";
    private static final String TELNYX_ID = "32DE0DEA-53CB-4B21-89A4-9E1819C043BC";
    private static Vertx vertx;
    private final ScriptedStart start = new ScriptedStart();
    private LocalWebSocket carrier;

    @BeforeAll
    static void vertx() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void closeVertx() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void close() throws Exception {
        if (carrier != null) {
            carrier.close();
        }
        assertThat(start.session.offLoop).as("session calls off the call's loop").isEmpty();
    }

    private void connect(List<Supplier<CarrierDialect>> dialects) throws Exception {
        connect(dialects, 10_000);
    }

    private void connect(List<Supplier<CarrierDialect>> dialects, long startTimeoutMs) throws Exception {
        carrier = LocalWebSocket.open(vertx, socket -> new CarrierMediaSocket(socket, ADMITTED, start, dialects, vertx,
                Vertx.currentContext(), startTimeoutMs).listen());
    }

    @Test
    void aSocketThatNeverSaysStartIsClosedAndItsRunEndedAsNotConnected() throws Exception {
        connect(CarrierDialects.ALL, 300);
        carrier.send("{\"event\":\"connected\",\"protocol\":\"Call\",\"version\":\"1.0.0\"}");

        assertThat(carrier.closeSeen()).isEqualTo("1000 system_connect_error");
        assertThat(start.unstarted()).containsExactly("system_connect_error");
        assertThat(start.media).as("no session was started").isNotDone();
    }

    @Test
    void aFrameLargerThanTheTransportTakesClosesTheSocketWith1009AndBreaksTheCall() throws Exception {
        carrier = LocalWebSocket.open(vertx, socket -> new CarrierMediaSocket(socket, ADMITTED, start,
                CarrierDialects.ALL, vertx, Vertx.currentContext(), 10_000).listen(),
                Integer.MAX_VALUE); // frames of any size
        carrier.send(twilioStart(false));
        start.awaitSession();
        carrier.send(twilioMedia("inbound", tone(1)));
        assertThat(start.session.nextAudio()).containsExactly(tone(1));

        // one frame over the transport's 64 KB (a 16 MB one is refused the same way, though the client may not get the
        // close frame while its own write is still under way)
        carrier.send("{\"event\":\"media\",\"media\":{\"payload\":\"" + "A".repeat(100 * 1024) + "\"}}");

        assertThat(carrier.closeSeen()).startsWith("1009");
        assertThat(start.session.next()).startsWith("broken the media socket was closed");
    }

    @Test
    void aMessageOfFramesLargerThanTheTransportTakesIsClosedWith1009AndBreaksTheCall() throws Exception {
        connect(CarrierDialects.ALL);
        carrier.send(twilioStart(false));
        start.awaitSession();

        carrier.send("{\"event\":\"media\",\"media\":{\"payload\":\"" + "A".repeat(4 * 1024 * 1024) + "\"}}");

        assertThat(carrier.closeSeen()).isEqualTo("1009 message too big");
        assertThat(start.session.next()).startsWith("broken the media socket was closed");
    }

    @Test
    void aFrameTooLargeBeforeTheStartEndsTheRunUnstarted() throws Exception {
        carrier = LocalWebSocket.open(vertx, socket -> new CarrierMediaSocket(socket, ADMITTED, start,
                CarrierDialects.ALL, vertx, Vertx.currentContext(), 10_000).listen(),
                Integer.MAX_VALUE);
        carrier.send("A".repeat(100 * 1024));

        assertThat(carrier.closeSeen()).startsWith("1009");
        assertThat(start.unstarted()).containsExactly("pipeline_error");
    }

    @Test
    void payloadsThatAreNotBase64AreSkippedAndTheCallStillHearsTheCaller() throws Exception {
        connect(CarrierDialects.ALL);
        carrier.send(twilioStart(false));
        start.awaitSession();
        for (int i = 0; i < 50; i++) {
            carrier.send(twilioMedia("inbound", tone(1)).replace(base64(tone(1)), "not base64 !!"));
        }
        carrier.send(twilioMedia("inbound", tone(2)));
        assertThat(start.session.nextAudio()).containsExactly(tone(2));
    }

    private static String base64(byte[] audio) {
        return Base64.getEncoder().encodeToString(audio);
    }

    private static byte[] tone(int seed) {
        byte[] frame = new byte[160];
        for (int i = 0; i < frame.length; i++) {
            frame[i] = (byte) (seed * 31 + i * 7);
        }
        return frame;
    }

    // ---- Twilio ----

    private static String twilioStart(boolean resumable) {
        return "{\"event\":\"start\",\"sequenceNumber\":\"1\",\"start\":{\"accountSid\":\"AC1\",\"streamSid\":\""
                + TWILIO_SID + "\",\"callSid\":\"CA1\",\"tracks\":[\"inbound\"],\"customParameters\":{"
                + "\"workflow_run_id\":\"3\",\"resumable\":\"" + resumable + "\"},\"mediaFormat\":{\"encoding\":"
                + "\"audio/x-mulaw\",\"sampleRate\":8000,\"channels\":1}},\"streamSid\":\"" + TWILIO_SID + "\"}";
    }

    private static String twilioMedia(String track, byte[] audio) {
        return "{\"event\":\"media\",\"sequenceNumber\":\"2\",\"media\":{\"track\":\"" + track + "\",\"chunk\":\"1\","
                + "\"timestamp\":\"20\",\"payload\":\"" + base64(audio) + "\"},\"streamSid\":\"" + TWILIO_SID + "\"}";
    }

    private static String twilio(String event, String body) {
        return "{\"event\":\"" + event + "\",\"sequenceNumber\":\"9\",\"streamSid\":\"" + TWILIO_SID + "\""
                + (body == null ? "" : ",\"" + event + "\":" + body) + "}";
    }

    @Test
    void aTwilioCallIsHeardAndSpokenInTwiliosDialect() throws Exception {
        connect(CarrierDialects.ALL);
        carrier.send("{\"event\":\"connected\",\"protocol\":\"Call\",\"version\":\"1.0.0\"}");
        carrier.send(twilioMedia("inbound", tone(0))); // before the start: nobody hears it
        carrier.send(twilioStart(true));
        MediaChannel channel = start.channel();
        start.awaitSession();
        assertThat(channel.format()).isEqualTo(AudioFormat.MULAW_8K);
        assertThat(channel.resumable()).as("the TwiML redirects the call back after the stream").isTrue();

        carrier.send(twilioMedia("inbound", tone(1)));
        carrier.send(twilioMedia("outbound", tone(2)));
        carrier.send(twilioMedia("inbound", tone(3)));
        carrier.send(twilio("dtmf", "{\"track\":\"inbound_track\",\"digit\":\"5\"}"));
        carrier.send(twilio("mark", "{\"name\":\"s1-1\"}"));

        assertThat(start.session.next()).isEqualTo("dtmf 5");
        assertThat(start.session.next()).isEqualTo("marked s1-1");
        assertThat(start.session.audio).as("the caller's track, in order; not the agent's own")
                .containsExactly(tone(1), tone(3));

        start.onLoop(() -> {
            channel.play(new byte[] {(byte) 0xFF, 0x7F, 0x00, 0x10});
            channel.mark("s2-1");
            channel.clear();
        });
        assertThat(carrier.nextText()).isEqualTo("{\"event\":\"media\",\"streamSid\":\"" + TWILIO_SID
                + "\",\"media\":{\"payload\":\"/38AEA==\"}}");
        assertThat(carrier.nextText()).isEqualTo("{\"event\":\"mark\",\"streamSid\":\"" + TWILIO_SID
                + "\",\"mark\":{\"name\":\"s2-1\"}}");
        assertThat(carrier.nextText()).isEqualTo("{\"event\":\"clear\",\"streamSid\":\"" + TWILIO_SID + "\"}");

        carrier.send(twilio("stop", "{\"accountSid\":\"AC1\",\"callSid\":\"CA1\"}"));
        assertThat(start.session.next()).isEqualTo("stopped");
        carrier.hangUp();
        assertThat(start.session.next()).as("the socket closed after the stop: still a hang-up").isEqualTo("stopped");
        assertThat(start.session.events).isEmpty();
    }

    @Test
    void aCloudonixCallHasItsMarksEchoedWhenTheirAudioHasPlayedAndNoneSentToCloudonix() throws Exception {
        connect(CarrierDialects.forMode("cloudonix"));
        carrier.send("{\"event\":\"connected\",\"protocol\":\"Call\",\"version\":\"1.0.0\"}");
        carrier.send("{\"event\":\"start\",\"sequenceNumber\":\"1\",\"start\":{\"streamSid\":\"stream-123\","
                + "\"callSid\":\"call-123\",\"session\":\"session-123\",\"tracks\":[\"inbound\"],\"mediaFormat\":"
                + "{\"encoding\":\"audio/x-mulaw\",\"sampleRate\":8000,\"channels\":1},\"customParameters\":{}}}");
        MediaChannel channel = start.channel();
        start.awaitSession();
        assertThat(channel.resumable()).isFalse();

        long sent = System.currentTimeMillis();
        start.onLoop(() -> {
            for (int i = 0; i < 10; i++) { // 200 ms of audio
                channel.play(new byte[160]);
            }
            channel.mark("s1-1");
        });
        for (int i = 0; i < 10; i++) {
            assertThat(carrier.nextText()).startsWith("{\"event\":\"media\",\"streamSid\":\"stream-123\"");
        }
        assertThat(start.session.next()).isEqualTo("marked s1-1");
        assertThat(System.currentTimeMillis() - sent).as("echoed once its 200 ms of audio played").isBetween(180L,
                1_000L);

        start.onLoop(() -> {
            for (int i = 0; i < 50; i++) { // a second of audio, then a barge-in before it played
                channel.play(new byte[160]);
            }
            channel.mark("s2-1");
            channel.clear();
            channel.play(new byte[160]);
            channel.mark("s3-1");
        });
        assertThat(start.session.next()).as("the cleared mark is never echoed; the next one after its 20 ms")
                .isEqualTo("marked s3-1");
        String last = null;
        for (int i = 0; i < 52; i++) {
            last = carrier.nextText();
            assertThat(last).doesNotContain("\"mark\"");
        }
        assertThat(last).isEqualTo("{\"event\":\"media\",\"streamSid\":\"stream-123\",\"media\":{\"payload\":\""
                + base64(new byte[160]) + "\"}}");
    }

    @Test
    void aTwilioStreamWithoutTheRedirectIsNotResumable() throws Exception {
        connect(CarrierDialects.ALL);
        carrier.send(twilioStart(false));

        assertThat(start.channel().resumable()).isFalse();
    }

    @Test
    void aSocketThatClosesWithoutAStopIsLostNotHungUp() throws Exception {
        connect(CarrierDialects.ALL);
        carrier.send(twilioStart(true));
        start.channel();
        start.awaitSession();

        carrier.hangUp();

        assertThat(start.session.next()).isEqualTo("lost");
        assertThat(start.session.events.poll(200, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void aSocketLostBeforeItsSessionStartedIsToldToTheSessionOnceItIsUp() throws Exception {
        start.later();
        connect(CarrierDialects.ALL);
        carrier.send(twilioStart(true));
        start.channel();
        carrier.hangUp();
        start.onLoop(() -> { }); // the close has been handled

        start.let();

        assertThat(start.session.next()).isEqualTo("lost");
    }

    @Test
    void aStopBeforeTheSessionStartedIsAHangUpOnceItIsUp() throws Exception {
        start.later();
        connect(CarrierDialects.ALL);
        carrier.send(twilioStart(true));
        start.channel();
        carrier.send(twilio("stop", "{}"));
        carrier.hangUp();
        start.onLoop(() -> { });

        start.let();

        assertThat(start.session.next()).isEqualTo("stopped");
    }

    @Test
    void theSessionClosingTheMediaClosesTheSocketAndSendsNothingAfter() throws Exception {
        connect(CarrierDialects.ALL);
        carrier.send(twilioStart(false));
        MediaChannel channel = start.channel();
        start.awaitSession();

        start.onLoop(() -> {
            channel.close("end_call");
            channel.play(new byte[160]);
            channel.mark("after");
        });

        assertThat(carrier.closeSeen()).isEqualTo("1000 end_call");
        assertThat(carrier.texts).as("nothing after the close").isEmpty();
        assertThat(start.session.next()).as("closed by this side: a hang-up").isEqualTo("stopped");
    }

    @Test
    void aSessionThatCannotStartClosesTheMedia() throws Exception {
        start.failing();
        connect(CarrierDialects.ALL);
        carrier.send(twilioStart(true));

        assertThat(carrier.closeSeen()).isEqualTo("1000 pipeline_error");
    }

    @Test
    void unreadableMessagesAreSkippedAndTheCallGoesOn() throws Exception {
        connect(CarrierDialects.ALL);
        carrier.send("not json at all");
        carrier.send(twilioStart(true));
        start.channel();
        start.awaitSession();

        carrier.send("{\"event\":\"media\",\"media\":{\"payload\":\"*** not base64 ***\"}}");
        carrier.send("{\"event\":");
        carrier.send(tone(4)); // Twilio's protocol is text only
        carrier.send(twilioMedia("inbound", tone(5)));
        carrier.send(twilio("dtmf", "{\"digit\":\"1\"}"));

        assertThat(start.session.next()).isEqualTo("dtmf 1");
        assertThat(start.session.audio).containsExactly(tone(5));
        assertThat(carrier.closed).isNotDone();
    }

    // ---- Telnyx ----

    private static String telnyxStart(String encoding) {
        return "{\"event\":\"start\",\"sequence_number\":\"1\",\"start\":{\"call_control_id\":\"v3:abc\","
                + "\"from\":\"+13122010093\",\"to\":\"+13122010094\",\"media_format\":{\"encoding\":\"" + encoding
                + "\",\"sample_rate\":8000,\"channels\":1}},\"stream_id\":\"" + TELNYX_ID + "\"}";
    }

    private static String telnyxMedia(long sequence, byte[] audio) {
        return "{\"event\":\"media\",\"sequence_number\":\"" + sequence + "\",\"media\":{\"track\":\"inbound\","
                + "\"chunk\":\"" + sequence + "\",\"timestamp\":\"" + sequence * 20 + "\",\"payload\":\""
                + base64(audio) + "\"},\"stream_id\":\"" + TELNYX_ID + "\"}";
    }

    @Test
    void aTelnyxCallerOnAlawIsHeardAsMulawAndLateFramesAreDropped() throws Exception {
        connect(CarrierDialects.ALL);
        carrier.send("{\"event\":\"connected\",\"version\":\"1.0.0\"}");
        carrier.send(telnyxStart("PCMA"));
        MediaChannel channel = start.channel();
        start.awaitSession();
        assertThat(channel.format()).isEqualTo(AudioFormat.MULAW_8K);
        assertThat(channel.resumable()).isFalse();

        carrier.send(telnyxMedia(2, tone(2)));
        carrier.send(telnyxMedia(4, tone(4)));
        carrier.send(telnyxMedia(3, tone(3))); // Telnyx does not promise order: its time has passed
        carrier.send(telnyxMedia(4, tone(4))); // and again
        carrier.send(telnyxMedia(5, tone(5)));
        carrier.send("{\"event\":\"dtmf\",\"sequence_number\":\"6\",\"dtmf\":{\"digit\":\"9\"},\"stream_id\":\""
                + TELNYX_ID + "\"}");
        carrier.send("{\"event\":\"mark\",\"sequence_number\":\"7\",\"mark\":{\"name\":\"s1-1\"},\"stream_id\":\""
                + TELNYX_ID + "\"}");

        assertThat(start.session.next()).isEqualTo("dtmf 9");
        assertThat(start.session.next()).isEqualTo("marked s1-1");
        assertThat(start.session.audio).containsExactly(G711.alawToMulaw(tone(2)), G711.alawToMulaw(tone(4)),
                G711.alawToMulaw(tone(5)));

        start.onLoop(() -> {
            channel.play(new byte[] {(byte) 0xFF, 0x7F, 0x00, 0x10});
            channel.mark("s2-1");
            channel.clear();
        });
        assertThat(carrier.nextText()).isEqualTo("{\"event\":\"media\",\"media\":{\"payload\":\"/38AEA==\"}}");
        assertThat(carrier.nextText()).isEqualTo("{\"event\":\"mark\",\"mark\":{\"name\":\"s2-1\"}}");
        assertThat(carrier.nextText()).isEqualTo("{\"event\":\"clear\"}");

        carrier.send("{\"event\":\"stop\",\"sequence_number\":\"8\",\"stop\":{\"call_control_id\":\"v3:abc\"},"
                + "\"stream_id\":\"" + TELNYX_ID + "\"}");
        assertThat(start.session.next()).isEqualTo("stopped");
    }

    @Test
    void aTelnyxStreamInAnotherCodecIsClosedWithoutASession() throws Exception {
        connect(CarrierDialects.ALL);
        carrier.send(telnyxStart("G722"));

        assertThat(carrier.closeSeen()).isEqualTo("1000 unsupported_media_encoding");
        assertThat(start.media).isNotDone();
    }

    // ---- the seam: a carrier with binary audio and its own hang-up ----

    /**
     * A carrier as Asterisk's chan_websocket speaks: text commands ("MEDIA_START id", "MARK_MEDIA name",
     * "FLUSH_MEDIA", "HANGUP"), the audio as binary frames both ways.
     */
    static final class LineDialect implements CarrierDialect {
        private boolean started;

        @Override
        public String carrier() {
            return "line";
        }

        @Override
        public AudioFormat format() {
            return AudioFormat.MULAW_8K;
        }

        @Override
        public CarrierEvent read(String text) {
            if (!started) {
                started = text.startsWith("MEDIA_START ");
                return started ? new CarrierEvent.Start(text.substring(12), "ulaw", false) : CarrierEvent.IGNORED;
            }
            return text.startsWith("MEDIA_MARK_PROCESSED ") ? new CarrierEvent.Marked(text.substring(21))
                    : CarrierEvent.IGNORED;
        }

        @Override
        public CarrierEvent read(byte[] binary) {
            return started ? new CarrierEvent.Audio(binary) : CarrierEvent.IGNORED;
        }

        @Override
        public CarrierFrame media(byte[] audio) {
            return new CarrierFrame.Binary(audio);
        }

        @Override
        public CarrierFrame mark(String name) {
            return new CarrierFrame.Text("MARK_MEDIA " + name);
        }

        @Override
        public CarrierFrame clear() {
            return new CarrierFrame.Text("FLUSH_MEDIA");
        }

        @Override
        public Optional<CarrierFrame> hangUp() {
            return Optional.of(new CarrierFrame.Text("HANGUP"));
        }
    }

    @Test
    void aCarrierOfBinaryAudioBehindTheSeamIsChosenByItsStartAndHungUpOnItsSocket() throws Exception {
        // Twilio's dialect is offered the text start first and cannot read it: the next carrier's dialect can
        connect(List.of(TwilioDialect::new, LineDialect::new));
        carrier.send(tone(0)); // before the start
        carrier.send("MEDIA_START chan-7");
        MediaChannel channel = start.channel();
        start.awaitSession();

        carrier.send(tone(1));
        carrier.send("MEDIA_MARK_PROCESSED s1-1");
        assertThat(start.session.next()).isEqualTo("marked s1-1");
        assertThat(start.session.audio).containsExactly(tone(1));

        start.onLoop(() -> {
            channel.play(tone(9));
            channel.mark("s2-1");
            channel.clear();
            channel.close("end_call");
        });
        assertThat(carrier.nextBinary()).containsExactly(tone(9));
        assertThat(carrier.nextText()).isEqualTo("MARK_MEDIA s2-1");
        assertThat(carrier.nextText()).isEqualTo("FLUSH_MEDIA");
        assertThat(carrier.nextText()).as("the hang-up, before the socket closes").isEqualTo("HANGUP");
        assertThat(carrier.closeSeen()).isEqualTo("1000 end_call");
    }
}
