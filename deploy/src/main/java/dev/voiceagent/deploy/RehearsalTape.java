package dev.voiceagent.deploy;

import java.util.ArrayList;
import java.util.List;

/**
 * What a rehearsed browser caller sends, timed rather than listening: 20 ms frames of 16-bit PCM at 16 kHz, its lines
 * with the silences between them long enough for the stand-ins' answers ({@link RehearsalProviders}: the greeting,
 * then an answer to each line), the last line said over the agent's long answer to the one before (a barge-in), and
 * silence after it while the last answer plays.
 */
final class RehearsalTape {

    /** 20 ms of 16 kHz 16-bit PCM. */
    static final int FRAME_BYTES = 640;
    /** Before the first line (the greeting plays), after each line (its answer), before the barge-in, after it. */
    private static final int[] SILENCES_MS = {1_600, 1_600, 900, 2_000};

    private RehearsalTape() {
    }

    /** The tape of {@code lines} (each 16 kHz PCM; three of them), frame by frame. */
    static List<byte[]> of(List<byte[]> lines) {
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            silence(frames, SILENCES_MS[Math.min(i, SILENCES_MS.length - 1)]);
            byte[] line = lines.get(i);
            for (int at = 0; at + FRAME_BYTES <= line.length; at += FRAME_BYTES) {
                frames.add(java.util.Arrays.copyOfRange(line, at, at + FRAME_BYTES));
            }
        }
        silence(frames, SILENCES_MS[SILENCES_MS.length - 1]);
        return frames;
    }

    private static void silence(List<byte[]> frames, int ms) {
        for (int i = 0; i < ms / 20; i++) {
            frames.add(new byte[FRAME_BYTES]);
        }
    }
}
