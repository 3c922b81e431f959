package dev.voiceagent.domain.voice;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Whether the caller is speaking, decided window by window from a detector's speech confidence and the window's volume
 * (pipecat's VAD analyser rule, which the reference runs, without its smoothing): a window is voiced when its confidence
 * reaches {@code confidence} and its volume reaches {@code minVolume}; speech starts after {@code start} of voiced
 * windows and stops after {@code stop} of unvoiced ones, so a cough shorter than {@code start} and a breath shorter than
 * {@code stop} change nothing. pipecat smooths the volume (each window moves it a fifth of the way): from a quiet line a
 * voice then needs about six windows (0.2 s) before a window counts as voiced, and a voice that stopped keeps counting
 * for two more, delaying both a barge-in and the answer; the start and stop delays already debounce, so the window's
 * own volume is used (measured by the voice benchmark, ADR 12). One instance per call; it keeps no clock and reads
 * none.
 */
public final class VoiceActivity {

    /** Where the caller is: silent, maybe starting, speaking, maybe stopping. */
    public enum State { QUIET, STARTING, SPEAKING, STOPPING }

    /**
     * The rule's thresholds.
     *
     * @param confidence the least detector confidence of a voiced window (0..1)
     * @param start how long voiced windows must last before speech starts
     * @param stop how long unvoiced windows must last before speech stops (the endpointing silence)
     * @param minVolume the least volume of a voiced window (0..1, see {@code domain.audio.Loudness})
     */
    public record Params(double confidence, Duration start, Duration stop, double minVolume) {

        /** pipecat's confidence, start and volume; a 0.2 s stop, as the turn waits for the final transcript anyway. */
        public static final Params DEFAULT = new Params(0.7, Duration.ofMillis(200), Duration.ofMillis(200), 0.6);

        public Params {
            if (confidence < 0 || confidence > 1 || minVolume < 0 || minVolume > 1) {
                throw new DomainRuleViolation("voice activity thresholds are between 0 and 1");
            }
            if (start.isNegative() || stop.isNegative()) {
                throw new DomainRuleViolation("voice activity delays cannot be negative");
            }
        }
    }

    private final Params params;
    private final int startWindows;
    private final int stopWindows;
    private State state = State.QUIET;
    private int count;

    /** @param window the length of one detector window (32 ms for Silero's 256 samples at 8 kHz) */
    public VoiceActivity(Params params, Duration window) {
        if (!window.isPositive()) {
            throw new DomainRuleViolation("a voice activity window must have a length");
        }
        this.params = params;
        this.startWindows = windows(params.start(), window);
        this.stopWindows = windows(params.stop(), window);
    }

    private static int windows(Duration span, Duration window) {
        return (int) Math.max(1, (span.toNanos() + window.toNanos() - 1) / window.toNanos());
    }

    public State state() {
        return state;
    }

    /**
     * One window heard at {@code at}: the detector's confidence and the window's volume. Returns the event when
     * speech starts or stops with this window, empty otherwise.
     */
    public Optional<VoiceEvent> window(double confidence, double volume, Instant at) {
        boolean voiced = confidence >= params.confidence() && volume >= params.minVolume();
        switch (state) {
            case QUIET -> {
                if (voiced) {
                    return begin(State.STARTING, startWindows, new VoiceEvent.SpeechStarted(at), State.SPEAKING);
                }
            }
            case STARTING -> {
                if (!voiced) {
                    state = State.QUIET;
                } else if (++count >= startWindows) {
                    state = State.SPEAKING;
                    return Optional.of(new VoiceEvent.SpeechStarted(at));
                }
            }
            case SPEAKING -> {
                if (!voiced) {
                    return begin(State.STOPPING, stopWindows, new VoiceEvent.SpeechStopped(at), State.QUIET);
                }
            }
            case STOPPING -> {
                if (voiced) {
                    state = State.SPEAKING;
                } else if (++count >= stopWindows) {
                    state = State.QUIET;
                    return Optional.of(new VoiceEvent.SpeechStopped(at));
                }
            }
        }
        return Optional.empty();
    }

    /** Enters a counting state with its first window counted; a one-window delay completes at once. */
    private Optional<VoiceEvent> begin(State counting, int needed, VoiceEvent done, State after) {
        count = 1;
        if (count >= needed) {
            state = after;
            return Optional.of(done);
        }
        state = counting;
        return Optional.empty();
    }
}
