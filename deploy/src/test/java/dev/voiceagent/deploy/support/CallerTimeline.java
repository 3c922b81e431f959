package dev.voiceagent.deploy.support;

import java.util.ArrayList;
import java.util.List;

/**
 * What one caller says, as ground truth for the fake Deepgram's script mode: segments of words, each from its first to
 * its last voiced 20 ms frame of the caller's stream (counted from the stream's first frame), registered by the caller
 * before it sends them. Noise, echo and babble are not segments: they carry no words. Thread-safe (the caller adds
 * segments on its clock, the recognizer reads them on its own).
 */
public final class CallerTimeline {

    /** Words the caller says in frames [{@code startFrame}, {@code endFrame}) of its stream. */
    public record Segment(long startFrame, long endFrame, String text) {
    }

    private final List<Segment> segments = new ArrayList<>();

    public synchronized void add(long startFrame, long endFrame, String text) {
        segments.add(new Segment(startFrame, endFrame, text));
    }

    public synchronized List<Segment> segments() {
        return List.copyOf(segments);
    }
}
