package dev.voiceagent.domain.audio;

/**
 * How loud a window of 16-bit samples is: its RMS level in dBFS, a volume on 0..1 and an energy-based speech
 * confidence (the fallback voice-activity detector, for tests and when the Silero model is absent).
 *
 * <p>The volume keeps the meaning of pipecat's {@code min_volume}: pipecat normalises a window's loudness, measured on
 * raw 16-bit values (full scale ≈ +90 LU), from -20..80 to 0..1, so its default 0.6 means about -50 dBFS. Here the RMS
 * level maps from -110..-10 dBFS to 0..1, the same line. RMS is not pyloudnorm's K-weighted integrated loudness, so
 * near the threshold a window can read a few dB off pipecat's figure (not measured here against pyloudnorm).
 */
public final class Loudness {

    /** The level of digital silence (an all-zero window), below anything a microphone gives. */
    public static final double SILENCE_DBFS = -120;

    private static final double FULL_SCALE = 32_768.0;

    private Loudness() {
    }

    /** The window's RMS level relative to full scale, {@link #SILENCE_DBFS} for silence or an empty window. */
    public static double dbfs(short[] samples) {
        if (samples.length == 0) {
            return SILENCE_DBFS;
        }
        double sum = 0;
        for (short s : samples) {
            sum += (double) s * s;
        }
        double rms = Math.sqrt(sum / samples.length);
        return rms == 0 ? SILENCE_DBFS : Math.max(SILENCE_DBFS, 20 * Math.log10(rms / FULL_SCALE));
    }

    /** The volume on 0..1 (see the class comment). */
    public static double volume(short[] samples) {
        return volume(dbfs(samples));
    }

    /** The volume on 0..1 of a level in dBFS. */
    public static double volume(double dbfs) {
        return clamp((dbfs + 110) / 100);
    }

    /**
     * How likely the window is speech, judged by energy alone: 0 at -50 dBFS (a quiet line's hiss), 1 from -30 dBFS
     * (a voice at telephone level). It cannot tell a voice from a loud noise; Silero can.
     */
    public static double speechConfidence(short[] samples) {
        return clamp((dbfs(samples) + 50) / 20);
    }

    private static double clamp(double v) {
        return Math.max(0, Math.min(1, v));
    }
}
