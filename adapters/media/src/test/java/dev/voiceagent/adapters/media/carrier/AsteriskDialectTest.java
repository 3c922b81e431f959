package dev.voiceagent.adapters.media.carrier;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceagent.domain.audio.AudioFormat;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Asterisk's chan_websocket events and commands, in JSON and in the older plain text, as Asterisk documents them. */
class AsteriskDialectTest {

    static final String JSON_START = "{\"event\":\"MEDIA_START\",\"connection_id\":\"e226e283-c90a-4ea9-9e37-389000b9ef47\","
            + "\"channel\":\"WebSocket/connectionid\",\"channel_id\":\"pbx1-123456789.999\",\"format\":\"ulaw\","
            + "\"optimal_frame_size\":160,\"ptime\":20,\"channel_variables\":{\"SOME\":\"value\"}}";
    static final String TEXT_START = "MEDIA_START connection_id:e226e283-c90a-4ea9-9e37-389000b9ef47 "
            + "channel:WebSocket/connectionid channel_id:pbx1-123456789.999 format:ulaw optimal_frame_size:160 ptime:20";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void aJsonCallIsHeardAndSpokenWithMarksFlushAndHangup() throws IOException {
        AsteriskDialect dialect = new AsteriskDialect();
        assertThat(dialect.read(new byte[160])).as("media before the start").isEqualTo(CarrierEvent.IGNORED);
        for (CarrierDialect other : new CarrierDialect[] {new TwilioDialect(), new TelnyxDialect(), new PlivoDialect(),
                new VonageDialect()}) {
            assertThat(other.read(JSON_START)).as(other.carrier()).isEqualTo(CarrierEvent.IGNORED);
        }
        assertThat(dialect.read(JSON_START)).isEqualTo(new CarrierEvent.Start("pbx1-123456789.999", "ulaw", false));
        assertThat(dialect.format()).isEqualTo(AudioFormat.MULAW_8K);
        assertThat(dialect.echoesMarks()).isTrue();
        byte[] frame = new byte[160];
        frame[3] = 0x55;
        assertThat(dialect.read(frame)).isInstanceOfSatisfying(CarrierEvent.Audio.class,
                audio -> assertThat(audio.frame()).containsExactly(frame));
        assertThat(dialect.read("{\"event\":\"DTMF_END\",\"channel_id\":\"pbx1-123456789.999\",\"digit\":\"9\"}"))
                .isEqualTo(new CarrierEvent.Dtmf("9"));
        assertThat(dialect.read("{\"event\":\"MEDIA_MARK_PROCESSED\",\"correlation_id\":\"s2\"}"))
                .isEqualTo(new CarrierEvent.Marked("s2"));
        assertThat(dialect.read("{\"event\":\"MEDIA_XOFF\",\"channel_id\":\"pbx1-123456789.999\"}"))
                .isEqualTo(CarrierEvent.IGNORED);

        assertThat(dialect.media(frame)).isInstanceOfSatisfying(CarrierFrame.Binary.class,
                binary -> assertThat(binary.bytes()).containsExactly(frame));
        JsonNode mark = MAPPER.readTree(((CarrierFrame.Text) dialect.mark("m\"1")).text());
        assertThat(mark.path("command").asText()).isEqualTo("MARK_MEDIA");
        assertThat(mark.path("correlation_id").asText()).isEqualTo("m\"1");
        assertThat(((CarrierFrame.Text) dialect.clear()).text()).isEqualTo("{\"command\":\"FLUSH_MEDIA\"}");
        assertThat(dialect.hangUp()).contains(new CarrierFrame.Text("{\"command\":\"HANGUP\"}"));
    }

    @Test
    void aPlainTextCallGetsPlainCommandsAndItsMarksArePacedByTheClock() throws IOException {
        AsteriskDialect dialect = new AsteriskDialect();
        assertThat(dialect.read(TEXT_START)).isEqualTo(new CarrierEvent.Start("pbx1-123456789.999", "ulaw", false));
        assertThat(dialect.echoesMarks()).as("plain text has no mark event to come back").isFalse();
        assertThat(dialect.read("DTMF_END channel_id:pbx1-123456789.999 digit:#")).isEqualTo(new CarrierEvent.Dtmf("#"));
        assertThat(((CarrierFrame.Text) dialect.clear()).text()).isEqualTo("FLUSH_MEDIA");
        assertThat(dialect.hangUp()).contains(new CarrierFrame.Text("HANGUP"));
        assertThat(dialect.read("not an event at all")).isEqualTo(CarrierEvent.IGNORED);
    }

    @Test
    void aFormatOtherThanUlawIsRefused() throws IOException {
        assertThat(new AsteriskDialect().read(JSON_START.replace("\"ulaw\"", "\"slin16\"")))
                .isInstanceOfSatisfying(CarrierEvent.Refused.class, r -> assertThat(r.why()).contains("slin16"));
    }
}
