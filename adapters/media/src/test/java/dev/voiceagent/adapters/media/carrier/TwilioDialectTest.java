package dev.voiceagent.adapters.media.carrier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.audio.AudioFormat;
import java.io.IOException;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Twilio Media Streams' messages read and written, as Twilio's documentation shows them. */
class TwilioDialectTest {

    static final String CONNECTED = "{\"event\":\"connected\",\"protocol\":\"Call\",\"version\":\"1.0.0\"}";
    static final String SID = "MZ18ad3ab5a668481ce02b83e7395059f0";
    static final String START = "{\"event\":\"start\",\"sequenceNumber\":\"1\",\"start\":{\"accountSid\":\"AC1\","
            + "\"streamSid\":\"MZ18ad3ab5a668481ce02b83e7395059f0\",\"callSid\":\"CA1\",\"tracks\":[\"inbound\"],"
            + "\"mediaFormat\":{\"encoding\":\"audio/x-mulaw\",\"sampleRate\":8000,\"channels\":1},"
            + "\"customParameters\":{\"workflow_run_id\":\"7\",\"resumable\":\"true\"}},"
            + "\"streamSid\":\"MZ18ad3ab5a668481ce02b83e7395059f0\"}";
    static final byte[] AUDIO = {(byte) 0xFF, 0x7F, 0x00, 0x10};

    private final TwilioDialect dialect = new TwilioDialect();

    static String media(String track, byte[] audio) {
        return "{\"event\":\"media\",\"sequenceNumber\":\"3\",\"media\":{\"track\":\"" + track + "\",\"chunk\":\"1\","
                + "\"timestamp\":\"5\",\"payload\":\"" + Base64.getEncoder().encodeToString(audio) + "\"},"
                + "\"streamSid\":\"MZ18ad3ab5a668481ce02b83e7395059f0\"}";
    }

    @Test
    void nothingButItsStartIsReadBeforeTheStart() throws IOException {
        assertThat(dialect.read(CONNECTED)).isEqualTo(CarrierEvent.IGNORED);
        assertThat(dialect.read(media("inbound", AUDIO))).isEqualTo(CarrierEvent.IGNORED);
        assertThat(dialect.read("{\"event\":\"stop\",\"streamSid\":\"MZ1\"}")).isEqualTo(CarrierEvent.IGNORED);
        // Telnyx's start names its stream stream_id: not Twilio's
        assertThat(dialect.read(TelnyxDialectTest.start("PCMU"))).isEqualTo(CarrierEvent.IGNORED);

        assertThat(dialect.read(START)).isEqualTo(new CarrierEvent.Start("MZ18ad3ab5a668481ce02b83e7395059f0",
                "audio/x-mulaw", true));
        assertThat(dialect.format()).isEqualTo(AudioFormat.MULAW_8K);
    }

    @Test
    void aStreamIsResumableOnlyWhenItsTwimlSaysSo() throws IOException {
        String plain = "{\"event\":\"start\",\"start\":{\"streamSid\":\"MZ2\",\"customParameters\":{"
                + "\"resumable\":\"false\"}}}";
        assertThat(dialect.read(plain)).isEqualTo(new CarrierEvent.Start("MZ2", "audio/x-mulaw", false));
    }

    @Test
    void theCallersTrackIsAudioTheAgentsIsNot() throws IOException {
        dialect.read(START);

        assertThat(dialect.read(media("inbound", AUDIO))).isInstanceOfSatisfying(CarrierEvent.Audio.class,
                audio -> assertThat(audio.frame()).containsExactly(AUDIO));
        assertThat(dialect.read(media("outbound", AUDIO))).isEqualTo(CarrierEvent.IGNORED);
        // Twilio's messages come in order: a frame numbered as an earlier one is still the caller's
        assertThat(dialect.read(media("inbound", AUDIO))).isInstanceOf(CarrierEvent.Audio.class);
    }

    @Test
    void anotherStreamsMessagesAreNotThisCallersEvenItsStop() throws IOException {
        dialect.read(START);

        String other = media("inbound", AUDIO).replace(SID, "MZ0ther");
        assertThat(dialect.read(other)).isEqualTo(CarrierEvent.IGNORED);
        assertThat(dialect.read("{\"event\":\"stop\",\"streamSid\":\"MZ0ther\"}")).isEqualTo(CarrierEvent.IGNORED);
        assertThat(dialect.read(media("inbound", AUDIO))).isInstanceOf(CarrierEvent.Audio.class);
    }

    @Test
    void dtmfMarksAndStopAreRead() throws IOException {
        dialect.read(START);

        assertThat(dialect.read("{\"event\":\"dtmf\",\"streamSid\":\"" + SID + "\",\"sequenceNumber\":\"5\",\"dtmf\":{"
                + "\"track\":\"inbound_track\",\"digit\":\"7\"}}")).isEqualTo(new CarrierEvent.Dtmf("7"));
        assertThat(dialect.read("{\"event\":\"mark\",\"sequenceNumber\":\"6\",\"streamSid\":\"" + SID + "\",\"mark\":{"
                + "\"name\":\"s1-3\"}}")).isEqualTo(new CarrierEvent.Marked("s1-3"));
        assertThat(dialect.read("{\"event\":\"mark\",\"mark\":{}}")).isEqualTo(CarrierEvent.IGNORED);
        assertThat(dialect.read(START)).as("a second start").isEqualTo(CarrierEvent.IGNORED);
        assertThat(dialect.read("{\"event\":\"stop\",\"sequenceNumber\":\"7\",\"streamSid\":\"" + SID + "\",\"stop\":{"
                + "\"accountSid\":\"AC1\",\"callSid\":\"CA1\"}}")).isEqualTo(CarrierEvent.STOPPED);
    }

    @Test
    void framesCarryTheStreamSid() throws IOException {
        dialect.read(START);

        assertThat(dialect.media(AUDIO)).isEqualTo(new CarrierFrame.Text("{\"event\":\"media\",\"streamSid\":"
                + "\"MZ18ad3ab5a668481ce02b83e7395059f0\",\"media\":{\"payload\":\"/38AEA==\"}}"));
        assertThat(dialect.mark("s2-1")).isEqualTo(new CarrierFrame.Text("{\"event\":\"mark\",\"streamSid\":"
                + "\"MZ18ad3ab5a668481ce02b83e7395059f0\",\"mark\":{\"name\":\"s2-1\"}}"));
        assertThat(dialect.clear()).isEqualTo(new CarrierFrame.Text("{\"event\":\"clear\",\"streamSid\":"
                + "\"MZ18ad3ab5a668481ce02b83e7395059f0\"}"));
        assertThat(dialect.hangUp()).as("Twilio hangs up through its REST API").isEmpty();
    }

    @Test
    void whatIsNotTwiliosJsonIsUnreadableAndOddShapesAreIgnored() throws IOException {
        dialect.read(START);

        assertThatThrownBy(() -> dialect.read("not json")).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> dialect.read("{\"event\":\"media\",\"media\":{\"payload\":\"***\"}}"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(dialect.read("[1,2]")).isEqualTo(CarrierEvent.IGNORED);
        // an object where the event's name should be is skipped whole: its fields are not read as the message's
        assertThat(dialect.read("{\"event\":{\"event\":\"stop\"},\"x\":1}")).isEqualTo(CarrierEvent.IGNORED);
        assertThat(dialect.read("{\"event\":null}")).isEqualTo(CarrierEvent.IGNORED);
    }
}
