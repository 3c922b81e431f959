package dev.voiceagent.deploy.support;

import dev.voiceagent.domain.audio.Loudness;
import dev.voiceagent.domain.audio.Pcm16;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * What a browser's caller says, one 20 ms unit at a time (a PCM frame on the plain route, an Opus packet over WebRTC):
 * lines of real speech and pauses, and when each line's voice went out (its first and last units louder than
 * {@link SimulatedCaller#VOICED_DBFS}). Not thread-safe: its caller's lock.
 */
public final class SpokenScript {

    /** 20 ms of 16-bit PCM at 16 kHz. */
    public static final int FRAME_BYTES = 640;

    private final byte[] silence;
    private final Deque<byte[]> units = new ArrayDeque<>();
    /** Whether each unit of {@link #units} carries the caller's voice (louder than the synthesizer's lead-in and tail). */
    private final Deque<Boolean> voiced = new ArrayDeque<>();
    private final List<long[]> speech = new ArrayList<>();
    private boolean speaking;

    /** @param silence the unit sent in pauses and once the script is done */
    public SpokenScript(byte[] silence) {
        this.silence = silence;
    }

    /** The line as FreeTTS says it, in 20 ms frames of 16 kHz PCM. */
    public static List<byte[]> frames(String line) {
        byte[] audio = Speech.pcm16k(line);
        List<byte[]> frames = new ArrayList<>();
        for (int at = 0; at < audio.length; at += FRAME_BYTES) {
            frames.add(Arrays.copyOfRange(audio, at, at + FRAME_BYTES));
        }
        return frames;
    }

    /** A line: {@code units.get(i)} carries {@code frames.get(i)}, voiced when that frame is loud enough. */
    public void say(List<byte[]> frames, List<byte[]> units) {
        for (int i = 0; i < frames.size(); i++) {
            this.units.addLast(units.get(i));
            voiced.addLast(Loudness.dbfs(Pcm16.samples(frames.get(i))) > SimulatedCaller.VOICED_DBFS);
        }
    }

    public void pause(int ms) {
        for (int t = 0; t < ms; t += 20) {
            units.addLast(silence);
            voiced.addLast(false);
        }
    }

    /** The unit to send at {@code now} (epoch ms): the script's next, or silence once it is done. */
    public byte[] next(long now) {
        byte[] unit = units.isEmpty() ? silence : units.pollFirst();
        boolean loud = !voiced.isEmpty() && voiced.pollFirst();
        boolean inLine = unit != silence;
        if (inLine && !speaking) {
            speech.add(new long[] {-1, -1});
        }
        if (inLine && loud) {
            long[] line = speech.getLast();
            line[0] = line[0] < 0 ? now : line[0];
            line[1] = now + 20;
        }
        speaking = inLine;
        return unit;
    }

    /** Each line's voiced part as sent: its first voiced unit's time and its last one's end (epoch ms). */
    public List<long[]> speech() {
        return speech;
    }
}
