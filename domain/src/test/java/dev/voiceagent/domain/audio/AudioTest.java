package dev.voiceagent.domain.audio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The audio building blocks of the voice runtime: G.711 μ-law, 16-bit PCM, resampling and framing. */
class AudioTest {

    private static short[] tone(double hz, int rate, double seconds, double amplitude) {
        short[] out = new short[(int) (rate * seconds)];
        for (int i = 0; i < out.length; i++) {
            out[i] = (short) Math.round(amplitude * Math.sin(2 * Math.PI * hz * i / rate));
        }
        return out;
    }

    /** Root mean square over the middle of a signal (the filter's edges left out). */
    private static double rms(short[] s) {
        int from = s.length / 10;
        int to = s.length - from;
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += (double) s[i] * s[i];
        }
        return Math.sqrt(sum / (to - from));
    }

    private static int zeroCrossings(short[] s) {
        int n = 0;
        for (int i = 1; i < s.length; i++) {
            if ((s[i - 1] < 0) != (s[i] < 0)) {
                n++;
            }
        }
        return n;
    }

    @Test
    void muLawMatchesTheStandardsReferencePointsAndRoundTripsWithinOneStep() {
        assertThat(G711.encode(0)).isEqualTo((byte) 0xFF);
        assertThat(G711.decode((byte) 0xFF)).isEqualTo((short) 0);
        assertThat(G711.decode((byte) 0x80)).isEqualTo((short) 32_124);
        assertThat(G711.decode((byte) 0x00)).isEqualTo((short) -32_124);
        assertThat(G711.encode(32_767)).as("clipped to the largest code").isEqualTo((byte) 0x80);
        assertThat(G711.encode(-32_768)).isEqualTo((byte) 0x00);
        for (int code = 0; code < 256; code++) {
            short linear = G711.decode((byte) code);
            if (code != 0x7F) { // the negative zero decodes to 0 and encodes as the positive one
                assertThat(G711.decode(G711.encode(linear))).as("code %d", code).isEqualTo(linear);
            }
        }
        for (int sample = -32_000; sample <= 32_000; sample += 37) {
            int back = G711.decode(G711.encode(sample));
            // a segment's step is 2^(exponent + 3): the error never exceeds half of it, about 3 % of the value
            assertThat(Math.abs(back - sample)).as("sample %d", sample).isLessThanOrEqualTo(Math.max(8,
                    Math.abs(sample) / 16));
        }
    }

    @Test
    void aLawMatchesTheStandardsReferencePointsAndBecomesMuLawOfTheSameSound() {
        assertThat(G711.decodeAlaw((byte) 0xD5)).as("A-law's silence").isEqualTo((short) 8);
        assertThat(G711.decodeAlaw((byte) 0xAA)).as("the largest positive code").isEqualTo((short) 32_256);
        assertThat(G711.decodeAlaw((byte) 0x2A)).isEqualTo((short) -32_256);
        assertThat(G711.encodeAlaw(0)).isEqualTo((byte) 0xD5);
        assertThat(G711.encodeAlaw(32_767)).isEqualTo((byte) 0xAA);
        for (int code = 0; code < 256; code++) {
            short linear = G711.decodeAlaw((byte) code);
            assertThat(G711.decodeAlaw(G711.encodeAlaw(linear))).as("code %d", code).isEqualTo(linear);
        }
        byte[] tone = new byte[160];
        for (int i = 0; i < tone.length; i++) {
            tone[i] = G711.encodeAlaw((int) (12_000 * Math.sin(2 * Math.PI * 440 * i / 8_000.0)));
        }
        byte[] mulaw = G711.alawToMulaw(tone.clone());
        for (int i = 0; i < tone.length; i++) {
            int a = G711.decodeAlaw(tone[i]);
            assertThat(Math.abs(G711.decode(mulaw[i]) - a)).as("sample %d", i).isLessThanOrEqualTo(Math.max(16,
                    Math.abs(a) / 16));
        }
        assertThat(G711.alawToMulaw(new byte[] {(byte) 0xD5})[0]).as("silence stays silence")
                .isIn((byte) 0xFF, (byte) 0xFE, (byte) 0x7F, (byte) 0x7E);
    }

    @Test
    void pcmIsLittleEndianAndRoundTrips() {
        short[] samples = {0, 1, -1, 32_767, -32_768, 258};
        byte[] bytes = Pcm16.bytes(samples);
        assertThat(bytes).startsWith(0, 0, 1, 0, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x7F, 0, (byte) 0x80, 2, 1);
        assertThat(Pcm16.samples(bytes)).containsExactly(samples);
    }

    @Test
    void downsamplingKeepsAVoiceBandToneAndRemovesWhatWouldAlias() {
        short[] speech = tone(1_000, 24_000, 1.0, 10_000);
        Resampler resampler = new Resampler(24_000, 8_000);
        short[] out = concat(resampler.process(speech), resampler.flush());
        assertThat(out.length).isEqualTo(8_000);
        assertThat(rms(out)).isCloseTo(rms(speech), org.assertj.core.data.Percentage.withPercentage(3));
        assertThat(zeroCrossings(out)).isBetween(1_990, 2_010); // still 1 kHz
        // 6 kHz does not exist at 8 kHz: without the low-pass it would come back as a 2 kHz tone
        Resampler aliasing = new Resampler(24_000, 8_000);
        short[] high = tone(6_000, 24_000, 1.0, 10_000);
        short[] folded = concat(aliasing.process(high), aliasing.flush());
        assertThat(rms(folded)).isLessThan(rms(high) / 1_000); // below -60 dB
    }

    @Test
    void upsamplingKeepsTheToneAtTheNewRate() {
        short[] phone = tone(440, 8_000, 1.0, 8_000);
        Resampler resampler = new Resampler(8_000, 48_000);
        short[] out = concat(resampler.process(phone), resampler.flush());
        assertThat(out.length).isEqualTo(48_000);
        assertThat(rms(out)).isCloseTo(rms(phone), org.assertj.core.data.Percentage.withPercentage(3));
        assertThat(zeroCrossings(out)).isBetween(870, 890);
    }

    @Test
    void thePolyphaseFormGivesTheDirectConvolutionsSamplesWithinItsFixedPointTapsAtEveryRatePair() {
        java.util.Random random = new java.util.Random(42);
        int[][] pairs = {{48_000, 16_000}, {16_000, 48_000}, {16_000, 24_000}, {24_000, 16_000}, {8_000, 16_000},
            {16_000, 8_000}, {24_000, 8_000}, {44_000, 16_000}};
        for (int[] pair : pairs) {
            Resampler polyphase = new Resampler(pair[0], pair[1]);
            DirectResampler direct = new DirectResampler(pair[0], pair[1]);
            long squares = 0;
            long samples = 0;
            for (int chunk = 0; chunk < 40; chunk++) {
                short[] in = new short[1 + random.nextInt(pair[0] / 25)];
                for (int i = 0; i < in.length; i++) { // full scale at times: no sum may leave the int
                    in[i] = chunk % 5 == 0 ? (random.nextBoolean() ? Short.MAX_VALUE : Short.MIN_VALUE)
                            : (short) random.nextInt(-20_000, 20_000);
                }
                short[] got = polyphase.process(in);
                short[] want = direct.process(in);
                assertThat(got).as("%d -> %d, chunk %d", pair[0], pair[1], chunk).hasSameSizeAs(want);
                for (int i = 0; i < got.length; i++) {
                    int off = Math.abs(got[i] - want[i]);
                    // a wrong tap or input would be off by thousands; 15-bit taps by a few units
                    assertThat(off).as("%d -> %d, chunk %d, sample %d", pair[0], pair[1], chunk, i).isLessThan(24);
                    squares += (long) off * off;
                    samples++;
                }
            }
            assertThat(Math.sqrt((double) squares / samples)).as("%d -> %d: rms error", pair[0], pair[1])
                    .isLessThan(2.5); // below -82 dB of full scale
            short[] last = polyphase.flush();
            short[] lastWanted = direct.flush();
            assertThat(last).hasSameSizeAs(lastWanted);
            for (int i = 0; i < last.length; i++) {
                assertThat(Math.abs(last[i] - lastWanted[i])).isLessThan(24);
            }
        }
    }

    @Test
    void aStreamFedInPiecesGivesExactlyTheSamplesFedAtOnce() {
        short[] signal = tone(700, 16_000, 0.5, 12_000);
        Resampler whole = new Resampler(16_000, 24_000);
        short[] expected = concat(whole.process(signal), whole.flush());
        Resampler pieces = new Resampler(16_000, 24_000);
        List<short[]> parts = new ArrayList<>();
        int at = 0;
        int size = 1;
        while (at < signal.length) { // 1, 2, 3, ... samples at a time
            int end = Math.min(signal.length, at + size++);
            parts.add(pieces.process(java.util.Arrays.copyOfRange(signal, at, end)));
            at = end;
        }
        parts.add(pieces.flush());
        assertThat(concat(parts.toArray(short[][]::new))).containsExactly(expected);
    }

    @Test
    void framesAreWholeWhateverTheChunksAndTheRestIsPaddedWithSilence() {
        Framer framer = new Framer(AudioFormat.MULAW_8K.bytes(20));
        assertThat(AudioFormat.MULAW_8K.bytes(20)).isEqualTo(160);
        assertThat(framer.push(new byte[100])).isEmpty();
        List<byte[]> frames = framer.push(new byte[300]);
        assertThat(frames).hasSize(2).allSatisfy(f -> assertThat(f).hasSize(160));
        assertThat(framer.pendingBytes()).isEqualTo(80);
        byte[] last = framer.flush((byte) 0xFF);
        assertThat(last).hasSize(160);
        assertThat(last[79]).isZero();
        assertThat(last[80]).isEqualTo((byte) 0xFF);
        assertThat(framer.flush((byte) 0xFF)).isEmpty();
    }

    @Test
    void formatsSayHowMuchAudioABufferHoldsAndRefuseOddRates() {
        assertThat(AudioFormat.PCM_16K.bytes(20)).isEqualTo(640);
        assertThat(AudioFormat.PCM_24K.millis(48_000)).isEqualTo(1_000);
        assertThat(AudioFormat.MULAW_8K.millis(8_000)).isEqualTo(1_000);
        assertThatThrownBy(() -> new AudioFormat(AudioFormat.Encoding.PCM16LE, 22_050))
                .isInstanceOf(DomainRuleViolation.class);
    }

    private static short[] concat(short[]... parts) {
        int n = 0;
        for (short[] p : parts) {
            n += p.length;
        }
        short[] out = new short[n];
        int at = 0;
        for (short[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    @Test
    void wavFilesOf16BitPcmOrMulawAreReadAsMonoAndOthersAreRefusedWithWhatTheyAre() {
        // stereo 16-bit PCM at 16 kHz, with a LIST chunk before the data (as many editors write): channels averaged
        java.nio.ByteBuffer pcm = java.nio.ByteBuffer.allocate(12 + 24 + 16 + 8 + 8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        pcm.put("RIFF".getBytes()).putInt(pcm.capacity() - 8).put("WAVE".getBytes());
        pcm.put("fmt ".getBytes()).putInt(16).putShort((short) 1).putShort((short) 2).putInt(16_000)
                .putInt(64_000).putShort((short) 4).putShort((short) 16);
        pcm.put("LIST".getBytes()).putInt(8).put("INFOabcd".getBytes());
        pcm.put("data".getBytes()).putInt(8).putShort((short) 1000).putShort((short) 3000)
                .putShort((short) -200).putShort((short) -400);
        Wav.Audio stereo = Wav.read(pcm.array());
        assertThat(stereo.sampleRate()).isEqualTo(16_000);
        assertThat(stereo.samples()).containsExactly((short) 2000, (short) -300);

        byte[] mulaw = java.util.Arrays.copyOf(Wav.header(1, 8_000, 0), 44 + 2);
        java.nio.ByteBuffer.wrap(mulaw).order(java.nio.ByteOrder.LITTLE_ENDIAN).putShort(20, (short) 7)
                .putShort(34, (short) 8).putInt(40, 2).putInt(4, 38);
        mulaw[44] = G711.encode(8_000);
        mulaw[45] = G711.encode(-8_000);
        assertThat(Wav.read(mulaw).samples()).containsExactly(G711.decode(G711.encode(8_000)),
                G711.decode(G711.encode(-8_000)));

        assertThatThrownBy(() -> Wav.read("ID3 an mp3 file".getBytes())).isInstanceOf(DomainRuleViolation.class)
                .hasMessage("not a WAV file");
        byte[] float32 = Wav.header(1, 8_000, 0);
        java.nio.ByteBuffer.wrap(float32).order(java.nio.ByteOrder.LITTLE_ENDIAN).putShort(20, (short) 3)
                .putShort(34, (short) 32);
        assertThatThrownBy(() -> Wav.read(float32)).isInstanceOf(DomainRuleViolation.class)
                .hasMessageContaining("format 3, 32 bits");
    }
}
