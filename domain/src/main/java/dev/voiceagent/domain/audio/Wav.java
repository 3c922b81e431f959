package dev.voiceagent.domain.audio;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** RIFF/WAVE files of 16-bit PCM, the format every player opens (written), and 16-bit PCM or μ-law ones (read). */
public final class Wav {

    public static final int HEADER_BYTES = 44;

    private Wav() {
    }

    /** The 44-byte header of a 16-bit PCM file with {@code dataBytes} of samples. */
    public static byte[] header(int channels, int sampleRate, long dataBytes) {
        if (channels < 1 || sampleRate < 1 || dataBytes < 0 || dataBytes > 0xFFFF_FFFFL - 36) {
            throw new IllegalArgumentException("not a valid WAV shape");
        }
        int blockAlign = channels * 2;
        ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {'R', 'I', 'F', 'F'}).putInt((int) (36 + dataBytes)).put(new byte[] {'W', 'A', 'V', 'E'});
        b.put(new byte[] {'f', 'm', 't', ' '}).putInt(16).putShort((short) 1).putShort((short) channels)
                .putInt(sampleRate).putInt(sampleRate * blockAlign).putShort((short) blockAlign).putShort((short) 16);
        b.put(new byte[] {'d', 'a', 't', 'a'}).putInt((int) dataBytes);
        return b.array();
    }

    /**
     * {@code length} μ-law bytes of {@code mulaw} from {@code from} as 16-bit little-endian samples into {@code out}
     * from {@code at} (twice as many bytes): interleaved μ-law stereo stays interleaved, as a recording is written.
     */
    public static void decodeMulaw(byte[] mulaw, int from, int length, byte[] out, int at) {
        for (int i = 0; i < length; i++) {
            short s = G711.decode(mulaw[from + i]);
            out[at + 2 * i] = (byte) s;
            out[at + 2 * i + 1] = (byte) (s >> 8);
        }
    }

    /** A WAV file's audio: mono 16-bit samples (channels averaged) at its rate. */
    public record Audio(short[] samples, int sampleRate) {
    }

    /**
     * Reads a RIFF/WAVE file of 16-bit PCM (format 1) or G.711 μ-law (format 7), mono or stereo, as mono samples.
     * Anything else is a DomainRuleViolation naming what it is.
     */
    public static Audio read(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        if (file.length < 12 || b.getInt(0) != 0x46464952 || b.getInt(8) != 0x45564157) { // "RIFF", "WAVE"
            throw new DomainRuleViolation("not a WAV file");
        }
        int format = -1;
        int channels = 0;
        int rate = 0;
        int bits = 0;
        int at = 12;
        while (at + 8 <= file.length) {
            int id = b.getInt(at);
            long size = b.getInt(at + 4) & 0xFFFFFFFFL;
            int body = at + 8;
            if (id == 0x20746d66 && body + 16 <= file.length) { // "fmt "
                format = b.getShort(body) & 0xFFFF;
                channels = b.getShort(body + 2) & 0xFFFF;
                rate = b.getInt(body + 4);
                bits = b.getShort(body + 14) & 0xFFFF;
            } else if (id == 0x61746164) { // "data"
                if (channels < 1 || channels > 2 || rate < 1_000 || rate > 192_000
                        || !(format == 1 && bits == 16 || format == 7 && bits == 8)) {
                    throw new DomainRuleViolation("a WAV of format " + format + ", "
                            + bits + " bits, " + channels + " channels at " + rate + " Hz: only 16-bit PCM or μ-law, mono or stereo");
                }
                int end = (int) Math.min(file.length, body + size);
                int bytesPerFrame = channels * bits / 8;
                int frames = (end - body) / bytesPerFrame;
                short[] out = new short[frames];
                for (int f = 0; f < frames; f++) {
                    int sum = 0;
                    for (int c = 0; c < channels; c++) {
                        int p = body + f * bytesPerFrame + c * bits / 8;
                        sum += format == 1 ? b.getShort(p) : G711.decode(file[p]);
                    }
                    out[f] = (short) (sum / channels);
                }
                return new Audio(out, rate);
            }
            at = (int) (body + size + (size & 1));
        }
        throw new DomainRuleViolation("a WAV file without audio data");
    }
}
