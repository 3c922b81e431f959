package dev.voiceagent.adapters.media.webrtc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.audio.Resampler;
import io.github.jaredmdobson.concentus.OpusApplication;
import io.github.jaredmdobson.concentus.OpusEncoder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The calls' Opus on the system's libopus (Debian's libopus0, which CI installs: VOICEAGENT_TEST_LIBOPUS=required;
 * where it is missing and not required these tests are skipped) and the Concentus fallback.
 */
class OpusCodecTest {

    @BeforeEach
    void libopusHere() {
        if (!LibOpus.available() && "required".equals(System.getenv("VOICEAGENT_TEST_LIBOPUS"))) {
            throw new AssertionError("libopus did not load: " + LibOpus.unavailable());
        }
        Assumptions.assumeTrue(LibOpus.available(), "no libopus here");
    }

    @Test
    void libopusIsTheCallsCodecWhereItLoads() {
        try (OpusCodec codec = OpusCodec.open()) {
            assertThat(codec).isInstanceOf(LibOpus.class);
            assertThat(codec.decodeRate()).isEqualTo(16_000);
        }
    }

    @Test
    void theAgentsSpeechComesBackAtItsPitchAndLoudness() {
        try (OpusCodec codec = LibOpus.open()) {
            short[] said = voiced(16_000, 50);
            short[] heard = roundTrip(codec, said);
            // the codec's look-ahead delays the audio a few ms: compare the second half
            short[] tail = Arrays.copyOfRange(heard, heard.length / 2, heard.length);
            short[] sourceTail = Arrays.copyOfRange(said, said.length / 2, said.length);
            double level = BrowserPeer.rms(sourceTail);
            assertThat(BrowserPeer.rms(tail)).isBetween(level * 0.7, level * 1.3);
            assertThat(BrowserPeer.crossingsPerSecond(tail)).isCloseTo(BrowserPeer.crossingsPerSecond(sourceTail),
                    org.assertj.core.data.Percentage.withPercentage(10));
        }
    }

    /**
     * What Concentus could not do: a browser's full-band packets (hybrid or CELT, as Chromium sends at 32 kbit/s)
     * decoded at 16 kHz. libopus gives the speech, as loud as Concentus' 48 kHz decoding cut to 16 kHz.
     */
    @Test
    void aBrowsersFullBandPacketsDecodeAtTheCallsRate() throws Exception {
        OpusEncoder browser = new OpusEncoder(48_000, 1, OpusApplication.OPUS_APPLICATION_AUDIO);
        browser.setBitrate(32_000);
        short[] said = voiced(48_000, 50);
        List<byte[]> packets = new ArrayList<>();
        byte[] packet = new byte[1275];
        for (int at = 0; at < said.length; at += 960) {
            int size = browser.encode(said, at, 960, packet, 0, packet.length);
            packets.add(Arrays.copyOf(packet, size));
        }
        assertThat(packets).allSatisfy(p -> assertThat((p[0] & 0xFF) >> 3).as("TOC config").isGreaterThanOrEqualTo(12));
        short[] libopus = new short[0];
        short[] concentus = new short[0];
        short[] out = new short[5_760];
        try (OpusCodec codec = LibOpus.open(); OpusCodec java = new OpusCodec.Concentus()) {
            Resampler down = new Resampler(48_000, 16_000);
            for (byte[] p : packets) {
                int n = codec.decode(p, 0, p.length, out);
                assertThat(n).isEqualTo(320);
                libopus = concat(libopus, Arrays.copyOf(out, n));
                n = java.decode(p, 0, p.length, out);
                concentus = concat(concentus, down.process(Arrays.copyOf(out, n)));
            }
        }
        double loud = BrowserPeer.rms(Arrays.copyOfRange(concentus, concentus.length / 2, concentus.length));
        assertThat(loud).isGreaterThan(1_000);
        assertThat(BrowserPeer.rms(Arrays.copyOfRange(libopus, libopus.length / 2, libopus.length)))
                .isBetween(loud * 0.8, loud * 1.2);
    }

    @Test
    void aLostPacketIsConcealedAndAPacketThatIsNoOpusRefusedWithoutHarm() {
        try (OpusCodec codec = LibOpus.open()) {
            short[] said = voiced(16_000, 10);
            roundTrip(codec, said);
            assertThat(codec.conceal(new short[5_760])).isEqualTo(320);
            byte[] garbage = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF}; // code 3, a frame count of 63: invalid
            assertThatThrownBy(() -> codec.decode(garbage, 0, garbage.length, new short[5_760]))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("opus_decode");
            assertThatThrownBy(() -> codec.encode(new short[160], new byte[1275], 0, 1275))
                    .as("half a frame: refused before libopus reads past it")
                    .isInstanceOf(IllegalArgumentException.class);
            short[] after = roundTrip(codec, said); // the call's codec goes on
            assertThat(BrowserPeer.rms(Arrays.copyOfRange(after, after.length / 2, after.length)))
                    .isGreaterThan(1_000);
        }
    }

    @Test
    void closingTwiceFreesOnce() {
        OpusCodec codec = LibOpus.open();
        codec.close();
        codec.close();
    }

    private static short[] roundTrip(OpusCodec codec, short[] said) {
        byte[] packet = new byte[1275];
        short[] out = new short[5_760];
        short[] heard = new short[0];
        for (int at = 0; at + 320 <= said.length; at += 320) {
            int size = codec.encode(Arrays.copyOfRange(said, at, at + 320), packet, 0, packet.length);
            assertThat(size).isBetween(1, 200); // 24 kbit/s: about 60 bytes
            int n = codec.decode(packet, 0, size, out);
            heard = concat(heard, Arrays.copyOf(out, n));
        }
        return heard;
    }

    /** {@code frames} of 20 ms: a 200 Hz voice with two harmonics. */
    private static short[] voiced(int rate, int frames) {
        short[] s = new short[rate / 50 * frames];
        for (int i = 0; i < s.length; i++) {
            double t = i / (double) rate;
            s[i] = (short) (6_000 * Math.sin(2 * Math.PI * 200 * t) + 2_000 * Math.sin(2 * Math.PI * 400 * t)
                    + 1_000 * Math.sin(2 * Math.PI * 600 * t));
        }
        return s;
    }

    private static short[] concat(short[] a, short[] b) {
        short[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
