package dev.voiceagent.adapters.media.carrier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import java.io.IOException;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Telnyx media streaming's messages read and written, as Telnyx's AsyncAPI document shows them. */
class TelnyxDialectTest {

    static final String STREAM_ID = "32DE0DEA-53CB-4B21-89A4-9E1819C043BC";
    /** The caller's audio as A-law: a quiet ramp, whose μ-law bytes differ from its A-law ones. */
    static final byte[] ALAW = {(byte) 0xD5, (byte) 0xD4, (byte) 0x55, (byte) 0x2A, (byte) 0xAA};

    private final TelnyxDialect dialect = new TelnyxDialect();

    static String start(String encoding) {
        return "{\"event\":\"start\",\"sequence_number\":\"1\",\"start\":{\"user_id\":\"u1\",\"call_control_id\":"
                + "\"v3:abc\",\"client_state\":null,\"from\":\"+13122010093\",\"to\":\"+13122010094\","
                + "\"media_format\":{\"encoding\":\"" + encoding + "\",\"sample_rate\":8000,\"channels\":1}},"
                + "\"stream_id\":\"" + STREAM_ID + "\"}";
    }

    static String media(long sequence, String track, byte[] audio) {
        return "{\"event\":\"media\",\"sequence_number\":\"" + sequence + "\",\"media\":{\"track\":\"" + track
                + "\",\"chunk\":\"" + sequence + "\",\"timestamp\":\"" + 20 * sequence + "\",\"payload\":\""
                + Base64.getEncoder().encodeToString(audio) + "\"},\"stream_id\":\"" + STREAM_ID + "\"}";
    }

    @Test
    void nothingButItsStartIsReadBeforeTheStart() throws IOException {
        assertThat(dialect.read("{\"event\":\"connected\",\"version\":\"1.0.0\"}")).isEqualTo(CarrierEvent.IGNORED);
        assertThat(dialect.read(media(2, "inbound", ALAW))).isEqualTo(CarrierEvent.IGNORED);
        assertThat(dialect.read(TwilioDialectTest.START)).as("Twilio's start").isEqualTo(CarrierEvent.IGNORED);

        assertThat(dialect.read(start("PCMU"))).isEqualTo(new CarrierEvent.Start(STREAM_ID, "PCMU", false));
        assertThat(dialect.format()).isEqualTo(AudioFormat.MULAW_8K);
        // the frame read before the start did not count as played in: frame 2 is still in time
        assertThat(dialect.read(media(2, "inbound", ALAW))).isInstanceOf(CarrierEvent.Audio.class);
    }

    @Test
    void aStartWithoutItsFormatIsMulaw() throws IOException {
        assertThat(dialect.read("{\"event\":\"start\",\"stream_id\":\"" + STREAM_ID + "\",\"start\":{}}"))
                .isEqualTo(new CarrierEvent.Start(STREAM_ID, "PCMU", false));
        assertThat(dialect.read(media(2, "inbound", ALAW))).isInstanceOfSatisfying(CarrierEvent.Audio.class,
                audio -> assertThat(audio.frame()).as("μ-law passed through").containsExactly(ALAW));
    }

    @Test
    void aForgedHugeSequenceNumberDoesNotDeafenTheCallAndAnotherStreamIsNotHeard() throws IOException {
        dialect.read(start("PCMU"));
        assertThat(dialect.read(media(1, "inbound", ALAW))).isInstanceOf(CarrierEvent.Audio.class);
        assertThat(dialect.read(media(Long.MAX_VALUE, "inbound", ALAW))).isInstanceOf(CarrierEvent.Audio.class);
        // the count starts anew from the next real frame rather than dropping every later one
        assertThat(dialect.read(media(2, "inbound", ALAW))).isInstanceOf(CarrierEvent.Audio.class);
        assertThat(dialect.read(media(3, "inbound", ALAW))).isInstanceOf(CarrierEvent.Audio.class);
        assertThat(dialect.read(media(2, "inbound", ALAW))).as("late").isEqualTo(CarrierEvent.DROPPED);
        assertThat(dialect.read(media(4, "inbound", ALAW).replace(STREAM_ID, "another-stream")))
                .isEqualTo(CarrierEvent.IGNORED);
        assertThat(dialect.read(media(4, "inbound", ALAW))).isInstanceOf(CarrierEvent.Audio.class);
    }

    @Test
    void anAlawCallerIsHeardAsMulaw() throws IOException {
        assertThat(dialect.read(start("pcma"))).isEqualTo(new CarrierEvent.Start(STREAM_ID, "PCMA", false));

        CarrierEvent heard = dialect.read(media(2, "inbound", ALAW));

        byte[] mulaw = G711.alawToMulaw(ALAW.clone());
        assertThat(mulaw).isNotEqualTo(ALAW);
        assertThat(heard).isInstanceOfSatisfying(CarrierEvent.Audio.class,
                audio -> assertThat(audio.frame()).containsExactly(mulaw));
    }

    @Test
    void anEncodingOtherThanG711IsRefused() throws IOException {
        assertThat(dialect.read(start("G722"))).isEqualTo(new CarrierEvent.Refused("unsupported_media_encoding",
                "Telnyx streams G722, not PCMU or PCMA"));
    }

    @Test
    void aFrameThatComesAfterALaterOneIsDropped() throws IOException {
        dialect.read(start("PCMU"));

        assertThat(dialect.read(media(2, "inbound", ALAW))).isInstanceOf(CarrierEvent.Audio.class);
        assertThat(dialect.read(media(4, "inbound", ALAW))).isInstanceOf(CarrierEvent.Audio.class);
        assertThat(dialect.read(media(3, "inbound", ALAW))).isEqualTo(CarrierEvent.DROPPED);
        assertThat(dialect.read(media(4, "inbound", ALAW))).as("a repeat").isEqualTo(CarrierEvent.DROPPED);
        assertThat(dialect.read(media(5, "inbound", ALAW))).isInstanceOf(CarrierEvent.Audio.class);
        // marks and other events are numbered in the same sequence but never dropped
        assertThat(dialect.read("{\"event\":\"mark\",\"sequence_number\":\"1\",\"stream_id\":\"" + STREAM_ID
                + "\",\"mark\":{\"name\":\"m1\"}}")).isEqualTo(new CarrierEvent.Marked("m1"));
    }

    @Test
    void theAgentsOwnTrackIsNeverHeard() throws IOException {
        dialect.read(start("PCMU"));

        assertThat(dialect.read(media(2, "outbound", ALAW))).isEqualTo(CarrierEvent.IGNORED);
        assertThat(dialect.read(media(2, "inbound", ALAW))).as("the outbound frame took no sequence number")
                .isInstanceOf(CarrierEvent.Audio.class);
    }

    @Test
    void dtmfErrorsAndStopAreRead() throws IOException {
        dialect.read(start("PCMU"));

        assertThat(dialect.read("{\"event\":\"dtmf\",\"sequence_number\":\"3\",\"dtmf\":{\"digit\":\"#\"},"
                + "\"stream_id\":\"" + STREAM_ID + "\"}")).isEqualTo(new CarrierEvent.Dtmf("#"));
        assertThat(dialect.read("{\"event\":\"error\",\"sequence_number\":\"4\",\"payload\":{\"code\":100003,"
                + "\"title\":\"malformed_frame\",\"detail\":\"The frame is malformed\"},\"stream_id\":\"" + STREAM_ID
                + "\"}")).isEqualTo(new CarrierEvent.Failed("The frame is malformed"));
        assertThat(dialect.read("{\"event\":\"stop\",\"sequence_number\":\"5\",\"stop\":{\"call_control_id\":"
                + "\"v3:abc\"},\"stream_id\":\"" + STREAM_ID + "\"}")).isEqualTo(CarrierEvent.STOPPED);
    }

    @Test
    void framesCarryNoIds() throws IOException {
        dialect.read(start("PCMA"));

        assertThat(dialect.media(new byte[] {(byte) 0xFF, 0x7F, 0x00, 0x10})).as("the agent's audio stays μ-law")
                .isEqualTo(new CarrierFrame.Text("{\"event\":\"media\",\"media\":{\"payload\":\"/38AEA==\"}}"));
        assertThat(dialect.mark("s1-2")).isEqualTo(new CarrierFrame.Text("{\"event\":\"mark\",\"mark\":{\"name\":"
                + "\"s1-2\"}}"));
        assertThat(dialect.clear()).isEqualTo(new CarrierFrame.Text("{\"event\":\"clear\"}"));
        assertThat(dialect.hangUp()).as("Telnyx hangs up through Call Control").isEmpty();
    }
}
