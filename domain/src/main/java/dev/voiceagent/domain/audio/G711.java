package dev.voiceagent.domain.audio;

/**
 * G.711 μ-law (ITU-T G.711, the carriers' PCMU): 14-bit linear samples companded to 8 bits and back. Encoding is
 * the standard segment search with the 0x84 bias; decoding is a 256-entry table. The JDK's own encoder rounds
 * differently on some samples (one quantisation step), so recordings compare decoded audio, never bytes. A-law (PCMA,
 * what a carrier may deliver on a European leg) is read by table and turned into μ-law, the runtime's phone format.
 */
public final class G711 {

    private static final int BIAS = 0x84;
    private static final int CLIP = 32_635;
    private static final short[] DECODE = new short[256];
    private static final short[] ALAW_DECODE = new short[256];
    private static final byte[] ALAW_TO_MULAW = new byte[256];
    private static final int[] ALAW_SEGMENT_END = {0x1F, 0x3F, 0x7F, 0xFF, 0x1FF, 0x3FF, 0x7FF, 0xFFF};

    static {
        for (int i = 0; i < 256; i++) {
            int u = ~i & 0xFF;
            int t = ((u & 0x0F) << 3) + BIAS;
            t <<= (u & 0x70) >> 4;
            DECODE[i] = (short) ((u & 0x80) != 0 ? BIAS - t : t - BIAS);
        }
        for (int i = 0; i < 256; i++) {
            int a = i ^ 0x55;
            int t = (a & 0x0F) << 4;
            int segment = (a & 0x70) >> 4;
            t = segment == 0 ? t + 8 : (t + 0x108) << (segment - 1);
            ALAW_DECODE[i] = (short) ((a & 0x80) != 0 ? t : -t);
            ALAW_TO_MULAW[i] = encode(ALAW_DECODE[i]);
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

    /** One A-law byte to its 16-bit sample. */
    public static short decodeAlaw(byte alaw) {
        return ALAW_DECODE[alaw & 0xFF];
    }

    /** One 16-bit sample to A-law (G.711's 13-bit segment search). */
    public static byte encodeAlaw(int sample) {
        int value = sample >> 3;
        int mask;
        if (value >= 0) {
            mask = 0xD5;
        } else {
            mask = 0x55;
            value = -value - 1;
        }
        int segment = 0;
        while (segment < 8 && value > ALAW_SEGMENT_END[segment]) {
            segment++;
        }
        if (segment == 8) {
            return (byte) (0x7F ^ mask);
        }
        int code = segment << 4 | (segment < 2 ? value >> 1 : value >> segment) & 0x0F;
        return (byte) (code ^ mask);
    }

    /** A-law bytes to μ-law bytes, in place (one table look-up a sample). */
    public static byte[] alawToMulaw(byte[] audio) {
        for (int i = 0; i < audio.length; i++) {
            audio[i] = ALAW_TO_MULAW[audio[i] & 0xFF];
        }
        return audio;
    }
}
