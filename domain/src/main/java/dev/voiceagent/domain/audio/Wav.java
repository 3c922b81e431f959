package dev.voiceagent.domain.audio;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** RIFF/WAVE files of 16-bit PCM, the format every player opens. */
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
     * Interleaved μ-law stereo (left, right, left, ...) as 16-bit PCM stereo samples, little-endian: what follows the
     * header of a stereo recording.
     */
    public static byte[] stereoPcm(byte[] interleavedMulaw) {
        byte[] out = new byte[interleavedMulaw.length * 2];
        for (int i = 0; i < interleavedMulaw.length; i++) {
            short s = G711.decode(interleavedMulaw[i]);
            out[2 * i] = (byte) s;
            out[2 * i + 1] = (byte) (s >> 8);
        }
        return out;
    }
}
