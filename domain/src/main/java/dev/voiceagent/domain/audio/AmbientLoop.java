package dev.voiceagent.domain.audio;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.Random;

/**
 * A background sound played under the agent's voice for the whole call (the workflow's ambient noise): a recording
 * looped without a seam (its end cross-faded into its start), scaled by a volume, either added to the agent's samples
 * or sent alone while the agent is silent. The position runs on across both, so the sound never restarts. One per
 * call; not thread-safe.
 */
public final class AmbientLoop {

    /** How much of the end is faded into the start, so the loop has no click. */
    static final int CROSSFADE_MS = 200;
    /** The default sound's length: long enough that its loop is not heard as one. */
    static final int ROOM_TONE_SECONDS = 8;
    /** The default sound's level at volume 1 (at the reference's default volume 0.3 it is about -37 dBFS). */
    static final double ROOM_TONE_DBFS = -26;

    private final short[] loop;
    private final double volume;
    private int position;

    /**
     * @param samples the sound at the call's sample rate (at least twice the cross-fade)
     * @param volume  from 0 (silent) to 1 (as recorded)
     */
    public AmbientLoop(short[] samples, int sampleRate, double volume) {
        if (!(volume >= 0 && volume <= 1)) {
            throw new DomainRuleViolation("ambient volume must be from 0 to 1");
        }
        int fade = sampleRate * CROSSFADE_MS / 1000;
        if (samples.length < 2 * fade || fade == 0) {
            throw new DomainRuleViolation("an ambient sound must last at least " + 2 * CROSSFADE_MS + " ms");
        }
        this.loop = seamless(samples, fade);
        this.volume = volume;
    }

    /**
     * The default ambience: a room tone (brown noise low-passed to the hum of an office's air, no voices), the same
     * every call, at {@code sampleRate}.
     */
    public static short[] roomTone(int sampleRate) {
        Random random = new Random(20_261_129L);
        int n = sampleRate * ROOM_TONE_SECONDS;
        double[] noise = new double[n];
        double brown = 0;
        double smooth = 0;
        double alpha = 1 - Math.exp(-2 * Math.PI * 900.0 / sampleRate); // a gentle low-pass near 900 Hz
        double sumSquares = 0;
        for (int i = 0; i < n; i++) {
            double white = random.nextGaussian();
            brown = 0.995 * brown + 0.1 * white; // leaky integration: a -6 dB/octave slope without drift
            smooth += alpha * (brown + 0.05 * white - smooth);
            noise[i] = smooth;
            sumSquares += smooth * smooth;
        }
        double rms = Math.sqrt(sumSquares / n);
        double gain = 32_768 * Math.pow(10, ROOM_TONE_DBFS / 20) / rms;
        short[] samples = new short[n];
        for (int i = 0; i < n; i++) {
            samples[i] = clip(noise[i] * gain);
        }
        return samples;
    }

    /** The next {@code count} samples of the sound alone, at its volume (what plays while the agent is silent). */
    public short[] next(int count) {
        short[] out = new short[count];
        for (int i = 0; i < count; i++) {
            out[i] = clip(take() * volume);
        }
        return out;
    }

    /** Adds the next {@code voice.length} samples of the sound under the agent's voice, in place, clipped. */
    public void mixInto(short[] voice) {
        for (int i = 0; i < voice.length; i++) {
            voice[i] = clip(voice[i] + take() * volume);
        }
    }

    private short take() {
        short s = loop[position];
        position = position + 1 == loop.length ? 0 : position + 1;
        return s;
    }

    /**
     * The sound as a loop: its last {@code fade} samples fade out over its first ones fading in, and the loop starts
     * after that overlap, so its end runs into its start.
     */
    private static short[] seamless(short[] samples, int fade) {
        short[] out = new short[samples.length - fade];
        System.arraycopy(samples, fade, out, 0, out.length - fade);
        for (int i = 0; i < fade; i++) {
            double in = (double) i / fade;
            out[out.length - fade + i] = clip(samples[samples.length - fade + i] * (1 - in) + samples[i] * in);
        }
        return out;
    }

    private static short clip(double v) {
        return (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.round(v)));
    }
}
