package dev.voiceagent.domain.audio;

/**
 * G.711 μ-law (ITU-T G.711, the carriers' PCMU): 14-bit linear samples companded to 8 bits and back. Encoding is
 * the standard segment search with the 0x84 bias; decoding is a 256-entry table. The JDK's own encoder rounds
 * differently on some samples (one quantisation step), so recordings compare decoded audio, never bytes.
 */
public final class G711 {

    private static final int BIAS = 0x84;
    private static final int CLIP = 32_635;
    private static final short[] DECODE = new short[256];

    static {
        for (int i = 0; i < 256; i++) {
            int u = ~i & 0xFF;
            int t = ((u & 0x0F) << 3) + BIAS;
            t <<= (u & 0x70) >> 4;
            DECODE[i] = (short) ((u & 0x80) != 0 ? BIAS - t : t - BIAS);
        }
    }

    private G711() {
    }

    public static byte encode(int sample) {
        int sign = (sample >> 8) & 0x80;
        int magnitude = sign != 0 ? -sample : sample;
        if (magnitude > CLIP) {
            magnitude = CLIP;
        }
        magnitude += BIAS;
        int exponent = 7;
        for (int mask = 0x4000; (magnitude & mask) == 0 && exponent > 0; mask >>= 1) {
            exponent--;
        }
        int mantissa = (magnitude >> (exponent + 3)) & 0x0F;
        return (byte) ~(sign | (exponent << 4) | mantissa);
    }

    public static short decode(byte mulaw) {
        return DECODE[mulaw & 0xFF];
    }

    /** μ-law bytes to 16-bit samples. */
    public static short[] decode(byte[] mulaw) {
        short[] out = new short[mulaw.length];
        for (int i = 0; i < mulaw.length; i++) {
            out[i] = DECODE[mulaw[i] & 0xFF];
        }
        return out;
    }

    /** 16-bit samples to μ-law bytes. */
    public static byte[] encode(short[] samples) {
        byte[] out = new byte[samples.length];
        for (int i = 0; i < samples.length; i++) {
            out[i] = encode(samples[i]);
        }
        return out;
    }
}
