package dev.voiceagent.adapters.media.carrier;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceagent.domain.audio.AudioFormat;
import java.io.IOException;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Plivo's (and Vobiz's) audio stream messages read and written, as Plivo's stream SDK types them. */
class PlivoDialectTest {

    static final String STREAM_ID = "20170ada-f610-433b-8758-c02a2aab3662";
    static final byte[] AUDIO = {(byte) 0xFF, (byte) 0x7F, 0x10, (byte) 0x90};
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final PlivoDialect dialect = new PlivoDialect();

    static String start(String encoding, int rate) {
        return "{\"sequenceNumber\":0,\"event\":\"start\",\"start\":{\"callId\":\"ba2a9a3e-ca5b-4e15-9b9c-5d1f3e3c1c1a\","
                + "\"streamId\":\"" + STREAM_ID + "\",\"accountId\":\"MAXXXXXXXXXXXXXXXXXX\",\"tracks\":[\"inbound\"],"
                + "\"mediaFormat\":{\"encoding\":\"" + encoding + "\",\"sampleRate\":" + rate + "}},"
                + "\"extra_headers\":\"{}\"}";
    }

    static String media(long n, String track, byte[] audio) {
        return "{\"sequenceNumber\":" + n + ",\"streamId\":\"" + STREAM_ID + "\",\"event\":\"media\",\"media\":{"
                + "\"track\":\"" + track + "\",\"timestamp\":\"" + 20 * n + "\",\"chunk\":" + n + ",\"payload\":\""
                + Base64.getEncoder().encodeToString(audio) + "\"},\"extra_headers\":\"{}\"}";
    }

    @Test
    void nothingButItsStartIsReadBeforeTheStartAndOtherCarriersStartsAreNotIts() throws IOException {
        assertThat(dialect.read(media(1, "inbound", AUDIO))).isEqualTo(CarrierEvent.IGNORED);
        assertThat(dialect.read(TwilioDialectTest.START)).as("Twilio's start").isEqualTo(CarrierEvent.IGNORED);
        assertThat(dialect.read(TelnyxDialectTest.start("PCMU"))).as("Telnyx's start").isEqualTo(CarrierEvent.IGNORED);
        assertThat(new TwilioDialect().read(start("audio/x-mulaw", 8000))).as("Twilio does not take Plivo's start")
                .isEqualTo(CarrierEvent.IGNORED);
        assertThat(new TelnyxDialect().read(start("audio/x-mulaw", 8000))).as("nor does Telnyx")
                .isEqualTo(CarrierEvent.IGNORED);

        assertThat(dialect.read(start("audio/x-mulaw", 8000)))
                .isEqualTo(new CarrierEvent.Start(STREAM_ID, "audio/x-mulaw", false));
        assertThat(dialect.format()).isEqualTo(AudioFormat.MULAW_8K);
        assertThat(dialect.read(media(1, "inbound", AUDIO))).isInstanceOfSatisfying(CarrierEvent.Audio.class,
                audio -> assertThat(audio.frame()).as("μ-law passed through").containsExactly(AUDIO));
    }

    @Test
    void anotherFormatThanTheXmlAskedForIsRefused() throws IOException {
        assertThat(dialect.read(start("audio/x-l16", 16000))).isInstanceOfSatisfying(CarrierEvent.Refused.class,
                refused -> assertThat(refused.why()).contains("audio/x-l16").contains("16000"));
        assertThat(new PlivoDialect().read(start("audio/x-mulaw", 16000))).isInstanceOf(CarrierEvent.Refused.class);
    }

    @Test
    void dtmfCheckpointsPlayedAnotherStreamAndTheOutboundTrack() throws IOException {
        dialect.read(start("audio/x-mulaw", 8000));
        assertThat(dialect.read("{\"event\":\"dtmf\",\"sequenceNumber\":5,\"streamId\":\"" + STREAM_ID
                + "\",\"dtmf\":{\"track\":\"inbound\",\"digit\":\"7\",\"timestamp\":\"100\"}}"))
                .isEqualTo(new CarrierEvent.Dtmf("7"));
        assertThat(dialect.read("{\"event\":\"playedStream\",\"sequenceNumber\":\"6\",\"streamId\":\"" + STREAM_ID
                + "\",\"name\":\"s3\"}")).isEqualTo(new CarrierEvent.Marked("s3"));
        assertThat(dialect.read("{\"event\":\"clearedAudio\",\"sequenceNumber\":7,\"streamId\":\"" + STREAM_ID
                + "\"}")).isEqualTo(CarrierEvent.IGNORED);
        assertThat(dialect.read(media(8, "outbound", AUDIO))).as("the agent's own track").isEqualTo(CarrierEvent.IGNORED);
        assertThat(dialect.read(media(9, "inbound", AUDIO).replace(STREAM_ID, "another")))
                .as("another stream's audio").isEqualTo(CarrierEvent.IGNORED);
    }

    @Test
    void playAudioCheckpointAndClearAudioCarryTheStreamIdAndEscapeNames() throws IOException {
        dialect.read(start("audio/x-mulaw", 8000));

        JsonNode play = MAPPER.readTree(((CarrierFrame.Text) dialect.media(AUDIO)).text());
        assertThat(play.path("event").asText()).isEqualTo("playAudio");
        assertThat(play.path("streamId").asText()).isEqualTo(STREAM_ID);
        assertThat(play.path("media").path("contentType").asText()).isEqualTo("audio/x-mulaw");
        assertThat(play.path("media").path("sampleRate").asInt()).isEqualTo(8000);
        assertThat(Base64.getDecoder().decode(play.path("media").path("payload").asText())).containsExactly(AUDIO);

        JsonNode checkpoint = MAPPER.readTree(((CarrierFrame.Text) dialect.mark("m\"1")).text());
        assertThat(checkpoint.path("event").asText()).isEqualTo("checkpoint");
        assertThat(checkpoint.path("streamId").asText()).isEqualTo(STREAM_ID);
        assertThat(checkpoint.path("name").asText()).isEqualTo("m\"1");

        JsonNode clear = MAPPER.readTree(((CarrierFrame.Text) dialect.clear()).text());
        assertThat(clear.path("event").asText()).isEqualTo("clearAudio");
        assertThat(clear.path("streamId").asText()).isEqualTo(STREAM_ID);
        assertThat(dialect.hangUp()).as("Plivo hangs up through its Call API").isEmpty();
    }

    @Test
    void vobizSpeaksPlivosProtocolUnderItsOwnName() throws IOException {
        VobizDialect vobiz = new VobizDialect();
        assertThat(vobiz.carrier()).isEqualTo("Vobiz");
        assertThat(vobiz.read(start("audio/x-mulaw", 8000))).isInstanceOf(CarrierEvent.Start.class);
        assertThat(vobiz.read(media(1, "inbound", AUDIO))).isInstanceOf(CarrierEvent.Audio.class);
    }

    @Test
    void theRunsCarrierIsOfferedTheStartFirst() {
        assertThat(CarrierDialects.forMode("vobiz").getFirst().get().carrier()).isEqualTo("Vobiz");
        assertThat(CarrierDialects.forMode("plivo").getFirst().get().carrier()).isEqualTo("Plivo");
        assertThat(CarrierDialects.forMode("twilio").getFirst().get().carrier()).isEqualTo("Twilio");
        assertThat(CarrierDialects.forMode("webrtc")).as("unknown: the documented order")
                .isEqualTo(CarrierDialects.ALL);
        assertThat(CarrierDialects.forMode("vobiz")).hasSameSizeAs(CarrierDialects.ALL);
    }
}
