package dev.voiceagent.adapters.media.carrier;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceagent.domain.audio.AudioFormat;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Vonage's WebSocket messages read and written, as Vonage's WebSocket guide shows them. */
class VonageDialectTest {

    static final String CONNECTED = "{\"event\":\"websocket:connected\",\"content-type\":\"audio/l16;rate=16000\","
            + "\"workflow_run_id\":\"42\",\"call_uuid\":\"63f61863-4a51-4f6b-86e1-46edebcf9356\"}";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final VonageDialect dialect = new VonageDialect();

    @Test
    void theConnectedEventStartsTheCallAndOnlyItIsReadBefore() throws IOException {
        assertThat(dialect.read(new byte[640])).as("audio before the start").isEqualTo(CarrierEvent.IGNORED);
        assertThat(dialect.read(TwilioDialectTest.START)).isEqualTo(CarrierEvent.IGNORED);
        assertThat(dialect.read(PlivoDialectTest.start("audio/x-mulaw", 8000))).isEqualTo(CarrierEvent.IGNORED);
        for (CarrierDialect other : new CarrierDialect[] {new TwilioDialect(), new TelnyxDialect(), new PlivoDialect()}) {
            assertThat(other.read(CONNECTED)).as(other.carrier() + " does not take Vonage's start")
                    .isEqualTo(CarrierEvent.IGNORED);
        }

        assertThat(dialect.read(CONNECTED)).isEqualTo(new CarrierEvent.Start("63f61863-4a51-4f6b-86e1-46edebcf9356",
                "audio/l16;rate=16000", false));
        assertThat(dialect.format()).isEqualTo(AudioFormat.PCM_16K);
        byte[] frame = new byte[640];
        frame[0] = 0x12;
        frame[639] = 0x7F;
        assertThat(dialect.read(frame)).isInstanceOfSatisfying(CarrierEvent.Audio.class,
                audio -> assertThat(audio.frame()).as("16 kHz PCM passed through").containsExactly(frame));
        assertThat(dialect.read(new byte[641])).isInstanceOfSatisfying(CarrierEvent.Audio.class,
                audio -> assertThat(audio.frame()).as("an odd byte dropped").hasSize(640));
    }

    @Test
    void anotherContentTypeThanTheNccoAskedForIsRefused() throws IOException {
        assertThat(dialect.read(CONNECTED.replace("16000", "8000"))).isInstanceOfSatisfying(
                CarrierEvent.Refused.class, refused -> assertThat(refused.why()).contains("rate=8000"));
    }

    @Test
    void dtmfNotifyAndClearedAreRead() throws IOException {
        dialect.read(CONNECTED);
        assertThat(dialect.read("{\"event\":\"websocket:dtmf\",\"digit\":\"5\",\"duration\":260}"))
                .isEqualTo(new CarrierEvent.Dtmf("5"));
        assertThat(dialect.read("{\"event\":\"websocket:dtmf\",\"dtmf\":{\"digit\":\"#\",\"duration\":100}}"))
                .isEqualTo(new CarrierEvent.Dtmf("#"));
        assertThat(dialect.read("{\"event\":\"websocket:notify\",\"payload\":{\"name\":\"s4\"}}"))
                .isEqualTo(new CarrierEvent.Marked("s4"));
        assertThat(dialect.read("{\"event\":\"websocket:cleared\"}")).isEqualTo(CarrierEvent.IGNORED);
    }

    @Test
    void audioGoesOutBinaryAndNotifyAndClearAsActions() throws IOException {
        dialect.read(CONNECTED);
        byte[] frame = new byte[640];
        frame[5] = 9;
        assertThat(dialect.media(frame)).isInstanceOfSatisfying(CarrierFrame.Binary.class,
                binary -> assertThat(binary.bytes()).containsExactly(frame));
        JsonNode notify = MAPPER.readTree(((CarrierFrame.Text) dialect.mark("m\"7")).text());
        assertThat(notify.path("action").asText()).isEqualTo("notify");
        assertThat(notify.path("payload").path("name").asText()).isEqualTo("m\"7");
        assertThat(MAPPER.readTree(((CarrierFrame.Text) dialect.clear()).text()).path("action").asText())
                .isEqualTo("clear");
        assertThat(dialect.hangUp()).isEmpty();
    }
}
