package dev.voiceagent.domain.audio;

/** 16-bit signed little-endian PCM bytes and samples, both ways. */
public final class Pcm16 {

    private Pcm16() {
    }

    public static short[] samples(byte[] bytes) {
        short[] out = new short[bytes.length / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (short) ((bytes[2 * i] & 0xFF) | (bytes[2 * i + 1] << 8));
        }
        return out;
    }

    public static byte[] bytes(short[] samples) {
        byte[] out = new byte[samples.length * 2];
        for (int i = 0; i < samples.length; i++) {
            out[2 * i] = (byte) samples[i];
            out[2 * i + 1] = (byte) (samples[i] >> 8);
        }
        return out;
    }
}
