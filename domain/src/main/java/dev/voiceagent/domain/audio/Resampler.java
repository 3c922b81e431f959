package dev.voiceagent.domain.audio;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.Arrays;

/**
 * Streaming sample-rate conversion between the rates calls use (8, 16, 24 and 48 kHz, any whole number of kHz):
 * a rational L/M polyphase resampler with a Blackman-windowed sinc low-pass at 90 % of the lower Nyquist frequency
 * (about 14 zero crossings each side: aliases of a downsampled tone are suppressed by more than 60 dB). Chunks may be
 * any size; feeding a stream in pieces gives exactly the samples feeding it at once would. Latency is the filter's
 * half length, about 2 ms. Not thread-safe: one per stream.
 *
 * <p>The taps are fixed-point integers, as many fraction bits as keep any output's sum inside an int (15 for the
 * rates calls use: a sample within a few units of the exact convolution's), so that the JIT runs each output's dot
 * product on SIMD lanes: a third of the time of the same loop in doubles, which no JIT may reorder (a WebRTC call's
 * 48 to 16 kHz conversion was the service's largest single cost).
 */
public final class Resampler {

    private static final int ZERO_CROSSINGS = 16;

    private final int up;
    private final int down;
    private final int half;
    /**
     * The kernel by phase, each read in the order inputs are: an output at upsampled position p takes its first input
     * k0 = ceil((p - half) / up) with the tap at 2 * half - ph, ph = (k0 * up - (p - half)), then every up-th tap before
     * it (the polyphase form: one contiguous dot product per output).
     */
    private final int[][] phases;
    /** Fraction bits of the taps. */
    private final int shift;
    private int[] input = new int[64];
    /** How many of {@code input} hold samples. */
    private int held;
    /** Absolute index of {@code input[0]}; {@code count} absolute inputs received so far. */
    private long inputStart;
    private long count;
    private long nextOutput;

    public Resampler(int fromRate, int toRate) {
        if (fromRate <= 0 || toRate <= 0) {
            throw new DomainRuleViolation("sample rates must be positive");
        }
        int g = gcd(fromRate, toRate);
        this.up = toRate / g;
        this.down = fromRate / g;
        int widest = Math.max(up, down);
        this.half = ZERO_CROSSINGS * widest;
        double cutoff = 0.45 / widest; // cycles per sample at the upsampled rate
        double[] kernel = new double[2 * half + 1];
        for (int i = 0; i <= 2 * half; i++) {
            int t = i - half;
            double sinc = t == 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * t) / (Math.PI * t);
            double x = (double) t / half;
            double window = 0.42 + 0.5 * Math.cos(Math.PI * x) + 0.08 * Math.cos(2 * Math.PI * x);
            kernel[i] = sinc * window * up;
        }
        // the most fraction bits (up to 16) with which no output's sum can leave an int: a phase's |taps| summed,
        // times a full-scale sample, plus the rounding
        int bits = 16;
        while (bits > 1 && widestSum(kernel, up, half, bits) * 32_768L + (1L << (bits - 1)) > Integer.MAX_VALUE) {
            bits--;
        }
        this.shift = bits;
        this.phases = new int[up][];
        for (int ph = 0; ph < up; ph++) {
            int taps = (2 * half - ph) / up + 1;
            phases[ph] = new int[taps];
            for (int j = 0; j < taps; j++) {
                phases[ph][j] = (int) Math.round(kernel[2 * half - ph - j * up] * (1 << bits));
            }
        }
    }

    /** The converted samples this chunk completes (the filter's last few wait for the next chunk or {@link #flush}). */
    public short[] process(short[] chunk) {
        append(chunk);
        return drain(false);
    }

    /** The samples still held back, as if the stream were followed by silence; the stream ends here. */
    public short[] flush() {
        return drain(true);
    }

    private void append(short[] chunk) {
        if (held + chunk.length > input.length) {
            input = Arrays.copyOf(input, Math.max(2 * input.length, held + chunk.length));
        }
        for (int i = 0; i < chunk.length; i++) {
            input[held + i] = chunk[i];
        }
        held += chunk.length;
        count += chunk.length;
    }

    private short[] drain(boolean toTheEnd) {
        // the last output a full stream yields: every input position is covered
        long lastOutput = toTheEnd ? (count * up - 1) / down : Long.MIN_VALUE;
        // about as many outputs as the inputs received cover (grown below if that falls short)
        short[] out = new short[(int) Math.max(16, Math.min(1 << 20, count * up / down - nextOutput + 2))];
        int round = 1 << (shift - 1);
        int n = 0;
        while (true) {
            long p = nextOutput * down; // position in the upsampled stream
            long lastInput = Math.floorDiv(p + half, up);
            if (toTheEnd ? nextOutput > lastOutput : lastInput >= count) {
                break;
            }
            long k0 = ceilDiv(p - half, up);
            int[] taps = phases[(int) (k0 * up - (p - half))];
            int from = (int) Math.max(0, -k0); // inputs before the stream's first are silence
            int to = (int) Math.min(taps.length, Math.min(lastInput, count - 1) - k0 + 1);
            int base = (int) (k0 - inputStart);
            int sum = 0;
            for (int j = from; j < to; j++) {
                sum += input[base + j] * taps[j];
            }
            if (n == out.length) {
                out = Arrays.copyOf(out, n * 2);
            }
            out[n++] = clip((sum + round) >> shift);
            nextOutput++;
        }
        trim();
        return Arrays.copyOf(out, n);
    }

    /** Drops the inputs no later output needs. */
    private void trim() {
        long needed = Math.max(0, ceilDiv(nextOutput * down - half, up));
        int drop = (int) Math.min(held, Math.max(0, needed - inputStart));
        if (drop > 0) {
            System.arraycopy(input, drop, input, 0, held - drop);
            held -= drop;
            inputStart += drop;
        }
    }

    private static short clip(int v) {
        return (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, v));
    }

    /** The largest sum of one phase's |taps| at {@code bits} fraction bits. */
    private static long widestSum(double[] kernel, int up, int half, int bits) {
        long widest = 0;
        for (int ph = 0; ph < up; ph++) {
            long sum = 0;
            for (int i = 2 * half - ph; i >= 0; i -= up) {
                sum += Math.abs(Math.round(kernel[i] * (1 << bits)));
            }
            widest = Math.max(widest, sum);
        }
        return widest;
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
