package dev.voiceagent.domain.audio;

import dev.voiceagent.domain.shared.DomainRuleViolation;

/**
 * How a stream of call audio is encoded: G.711 μ-law (carriers: one byte a sample) or 16-bit signed little-endian
 * PCM (browsers, some speech providers), at a sample rate, mono. The phone path stays in {@link #MULAW_8K} end to end.
 */
public record AudioFormat(Encoding encoding, int sampleRate) {

    public enum Encoding {
        MULAW(1), PCM16LE(2);

        private final int bytesPerSample;

        Encoding(int bytesPerSample) {
            this.bytesPerSample = bytesPerSample;
        }

        public int bytesPerSample() {
            return bytesPerSample;
        }
    }

    public static final AudioFormat MULAW_8K = new AudioFormat(Encoding.MULAW, 8_000);
    public static final AudioFormat PCM_16K = new AudioFormat(Encoding.PCM16LE, 16_000);
    public static final AudioFormat PCM_24K = new AudioFormat(Encoding.PCM16LE, 24_000);
    public static final AudioFormat PCM_48K = new AudioFormat(Encoding.PCM16LE, 48_000);

    public AudioFormat {
        if (encoding == null) {
            throw new DomainRuleViolation("an audio format needs an encoding");
        }
        if (sampleRate < 8_000 || sampleRate > 48_000 || sampleRate % 1_000 != 0) {
            throw new DomainRuleViolation("sample rate must be a whole number of kHz from 8 to 48 kHz, not "
                    + sampleRate);
        }
    }

    /** Bytes in {@code millis} of audio (20 ms of μ-law 8 kHz: 160). */
    public int bytes(int millis) {
        return sampleRate / 1_000 * millis * encoding.bytesPerSample();
    }

    /** Milliseconds of audio in {@code bytes} (rounded down). */
    public long millis(long bytes) {
        return bytes / encoding.bytesPerSample() * 1_000 / sampleRate;
    }
}
