package dev.voiceagent.domain.audio;

import java.util.Arrays;

/** The resampler as it was before its polyphase form, in doubles: every tap found by arithmetic, the oracle of the test. */
final class DirectResampler {

    private static final int ZERO_CROSSINGS = 16;

    private final int up;
    private final int down;
    private final int half;
    private final double[] kernel;
    private double[] input = new double[0];
    /** Absolute index of {@code input[0]}; {@code count} absolute inputs received so far. */
    private long inputStart;
    private long count;
    private long nextOutput;

    DirectResampler(int fromRate, int toRate) {
        if (fromRate <= 0 || toRate <= 0) {
            throw new IllegalArgumentException("sample rates must be positive");
        }
        int g = gcd(fromRate, toRate);
        this.up = toRate / g;
        this.down = fromRate / g;
        int widest = Math.max(up, down);
        this.half = ZERO_CROSSINGS * widest;
        double cutoff = 0.45 / widest; // cycles per sample at the upsampled rate
        this.kernel = new double[2 * half + 1];
        for (int i = 0; i <= 2 * half; i++) {
            int t = i - half;
            double sinc = t == 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * t) / (Math.PI * t);
            double x = (double) t / half;
            double window = 0.42 + 0.5 * Math.cos(Math.PI * x) + 0.08 * Math.cos(2 * Math.PI * x);
            kernel[i] = sinc * window * up;
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
        int kept = input.length;
        input = Arrays.copyOf(input, kept + chunk.length);
        for (int i = 0; i < chunk.length; i++) {
            input[kept + i] = chunk[i];
        }
        count += chunk.length;
    }

    private short[] drain(boolean toTheEnd) {
        // the last output a full stream yields: every input position is covered
        long lastOutput = toTheEnd ? (count * up - 1) / down : Long.MIN_VALUE;
        short[] out = new short[16];
        int n = 0;
        while (true) {
            long p = nextOutput * down; // position in the upsampled stream
            long lastInput = Math.floorDiv(p + half, up);
            if (toTheEnd ? nextOutput > lastOutput : lastInput >= count) {
                break;
            }
            long firstInput = Math.max(0, ceilDiv(p - half, up));
            double sum = 0;
            for (long k = firstInput; k <= lastInput && k < count; k++) {
                sum += input[(int) (k - inputStart)] * kernel[(int) (p - k * up + half)];
            }
            if (n == out.length) {
                out = Arrays.copyOf(out, n * 2);
            }
            out[n++] = clip(sum);
            nextOutput++;
        }
        trim();
        return Arrays.copyOf(out, n);
    }

    /** Drops the inputs no later output needs. */
    private void trim() {
        long needed = Math.max(0, ceilDiv(nextOutput * down - half, up));
        int drop = (int) Math.min(input.length, Math.max(0, needed - inputStart));
        if (drop > 0) {
            input = Arrays.copyOfRange(input, drop, input.length);
            inputStart += drop;
        }
    }

    private static short clip(double v) {
        long r = Math.round(v);
        return (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, r));
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
