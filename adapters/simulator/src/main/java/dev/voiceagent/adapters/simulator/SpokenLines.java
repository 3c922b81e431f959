package dev.voiceagent.adapters.simulator;

import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Loudness;
import jakarta.inject.Singleton;
import java.util.concurrent.ConcurrentHashMap;

/**
 * SIMULATOR: what the simulated callee said, addressed by its audio. Every voiced 20 ms frame of a line the callee
 * says (μ-law 8 kHz, as the phone path carries it unchanged) is indexed by a 64-bit hash of its bytes, so the
 * simulator speech-to-text recognizes a line from the frames it hears, on whichever call they arrive: identical audio
 * is the identical line. Bounded: past {@link #MAX_FRAMES} the index starts over (the callee indexes a line each time
 * it says it).
 */
@Singleton
public class SpokenLines {

    /** 20 ms of μ-law 8 kHz. */
    public static final int FRAME = 160;
    static final int MAX_FRAMES = 200_000;
    /** A frame louder than this is voice (FreeTTS's lead-in and tail are quieter). */
    static final double VOICED_DBFS = -45;

    /** A voiced frame of a line: the line, and whether it is the line's last voiced frame (its audio ends). */
    public record Heard(String line, boolean last) {
    }

    private final ConcurrentHashMap<Long, Heard> frames = new ConcurrentHashMap<>();

    /** Indexes the voiced frames of {@code mulaw}, the callee's line {@code text}. */
    public void remember(String text, byte[] mulaw) {
        if (frames.size() > MAX_FRAMES) {
            frames.clear();
        }
        long last = 0;
        for (int at = 0; at + FRAME <= mulaw.length; at += FRAME) {
            if (voiced(mulaw, at)) {
                last = hash(mulaw, at);
                frames.put(last, new Heard(text, false));
            }
        }
        if (last != 0) {
            frames.put(last, new Heard(text, true));
        }
    }

    /** The line whose frame starts at {@code offset}, or null. */
    public Heard line(byte[] mulaw, int offset) {
        return frames.get(hash(mulaw, offset));
    }

    public static boolean voiced(byte[] mulaw, int offset) {
        short[] samples = new short[FRAME];
        for (int i = 0; i < FRAME; i++) {
            samples[i] = G711.decode(mulaw[offset + i]);
        }
        return Loudness.dbfs(samples) > VOICED_DBFS;
    }

    /** FNV-1a, 64 bits, over one frame. */
    static long hash(byte[] bytes, int offset) {
        long h = 0xcbf29ce484222325L;
        for (int i = offset; i < offset + FRAME; i++) {
            h ^= bytes[i] & 0xFF;
            h *= 0x100000001b3L;
        }
        return h;
    }
}
