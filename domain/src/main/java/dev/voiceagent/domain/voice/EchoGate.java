package dev.voiceagent.domain.voice;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The agent's own voice coming back on the caller's line (a speakerphone, a handset's sidetone) must not be heard as the
 * caller speaking over it. The line returns it well below what was sent (an echo return loss of 20-30 dB), while a
 * caller talking over the agent reaches about the agent's level: while the agent's audio went out in the last
 * {@link #SPAN} (its time in the carrier's queue and the echo's delay), a window of the caller's audio counts as speech
 * only from {@link #MARGIN_DB} below the loudest of it. Between answers there is no floor. One instance per call; it
 * keeps no clock and reads none.
 */
public final class EchoGate {

    /** How far back the agent's audio can still come back as echo. */
    public static final Duration SPAN = Duration.ofMillis(1_000);
    /** How far below the agent's level a window still counts as the caller (an echo at -25 dB does not). */
    public static final double MARGIN_DB = 15;

    private record Sent(Instant at, double dbfs) {
    }

    private final Deque<Sent> sent = new ArrayDeque<>();

    /** A frame of the agent's audio, at its level (dBFS), went to the caller at {@code at}. */
    public void sent(double dbfs, Instant at) {
        forget(at);
        while (!sent.isEmpty() && sent.peekLast().dbfs() <= dbfs) {
            sent.pollLast(); // a louder frame later covers the quieter ones before it: the head stays the loudest
        }
        sent.addLast(new Sent(at, dbfs));
    }

    /** The least level (dBFS) of a window that counts as the caller at {@code at}; none (-infinity) between answers. */
    public double floorDbfs(Instant at) {
        forget(at);
        return sent.isEmpty() ? Double.NEGATIVE_INFINITY : sent.peekFirst().dbfs() - MARGIN_DB;
    }

    private void forget(Instant at) {
        Instant oldest = at.minus(SPAN);
        while (!sent.isEmpty() && sent.peekFirst().at().isBefore(oldest)) {
            sent.pollFirst();
        }
    }
}
