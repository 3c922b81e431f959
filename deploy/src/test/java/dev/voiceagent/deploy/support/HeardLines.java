package dev.voiceagent.deploy.support;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An ear for the fake recognizers that hears what the simulated callers say from the audio itself: the lines they may
 * say are known, each spoken by {@link Speech} in 20 ms μ-law frames that reach the service and, passed through
 * untouched, the provider. A line is heard when at least {@link #ENOUGH} of the frames only it has are in the audio, so
 * a line whose start or end never reached the recognizer (a socket that dropped, audio not sent again after a
 * reconnect) is not understood, and one sent twice is heard once. Lines are told in the order they were said.
 */
public final class HeardLines {

    /** The share of a line's own frames that must be heard for the line to be understood. */
    static final double ENOUGH = 0.8;
    private static final int FRAME = 160;

    private final List<String> lines;
    /** Each frame that belongs to one line only, and that line's index. */
    private final Map<ByteBuffer, Integer> own = new HashMap<>();
    private final int[] ownFrames;

    public HeardLines(List<String> lines) {
        this.lines = List.copyOf(lines);
        Map<ByteBuffer, Set<Integer>> whose = new HashMap<>();
        for (int i = 0; i < this.lines.size(); i++) {
            byte[] audio = Speech.mulaw(this.lines.get(i));
            for (int at = 0; at + FRAME <= audio.length; at += FRAME) {
                whose.computeIfAbsent(ByteBuffer.wrap(Arrays.copyOfRange(audio, at, at + FRAME)),
                        k -> new HashSet<>()).add(i);
            }
        }
        ownFrames = new int[this.lines.size()];
        whose.forEach((frame, in) -> {
            if (in.size() == 1) {
                int line = in.iterator().next();
                own.put(frame, line);
                ownFrames[line]++;
            }
        });
    }

    /** An ear for one recognizer's audio: frames in, what was said out, after which it listens afresh. */
    public Ear ear() {
        return new Ear();
    }

    /** One socket's audio since its last transcript. */
    public final class Ear {
        private final Set<ByteBuffer> heard = new HashSet<>();
        /** The first frame heard of each line (its place in the audio), by line. */
        private final Map<Integer, Integer> firstAt = new HashMap<>();
        private int frames;
        private byte[] partial = new byte[0];

        /** Audio as it came: whole frames, or a stream of them cut anywhere. */
        public synchronized void audio(byte[] bytes) {
            byte[] all = partial.length == 0 ? bytes : concat(partial, bytes);
            int at = 0;
            for (; at + FRAME <= all.length; at += FRAME) {
                ByteBuffer frame = ByteBuffer.wrap(Arrays.copyOfRange(all, at, at + FRAME));
                Integer line = own.get(frame);
                if (line != null && heard.add(frame)) {
                    firstAt.putIfAbsent(line, frames);
                }
                frames++;
            }
            partial = Arrays.copyOfRange(all, at, all.length);
        }

        /** Whether any frame of a known line came since the last transcript. */
        public synchronized boolean hearsSpeech() {
            return !heard.isEmpty();
        }

        /** The lines heard whole enough since the last transcript, in the order said ("" for none); then afresh. */
        public synchronized String transcript() {
            Map<Integer, Integer> counts = new HashMap<>();
            for (ByteBuffer frame : heard) {
                counts.merge(own.get(frame), 1, Integer::sum);
            }
            List<Integer> said = new ArrayList<>();
            counts.forEach((line, n) -> {
                if (n >= ENOUGH * ownFrames[line]) {
                    said.add(line);
                }
            });
            said.sort((a, b) -> Integer.compare(firstAt.get(a), firstAt.get(b)));
            heard.clear();
            firstAt.clear();
            StringBuilder text = new StringBuilder();
            for (int line : said) {
                text.append(text.isEmpty() ? "" : " ").append(lines.get(line));
            }
            return text.toString();
        }

        private static byte[] concat(byte[] a, byte[] b) {
            byte[] out = Arrays.copyOf(a, a.length + b.length);
            System.arraycopy(b, 0, out, a.length, b.length);
            return out;
        }
    }
}
