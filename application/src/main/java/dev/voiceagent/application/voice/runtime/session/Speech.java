package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.domain.audio.Framer;
import dev.voiceagent.domain.voice.HeardText;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * One answer's audio on its way to the caller (LiveKit's speech handle): its segments in the order they are said (a
 * sentence of the pipeline's voice, a recording, a response of a speech-to-speech model), each filled with audio as
 * it comes and framed to the carrier's frame size in order, the sentences' places on the answer's timeline (what a
 * barge-in keeps), and whether anything more will be said. {@link Playback} plays it. On the call's loop only.
 */
final class Speech {

    /** The place of a segment's end among the frames: a mark goes there, so the carrier says when it was heard. */
    static final byte[] SEGMENT_END = new byte[0];

    /** One sentence, recording or response of the answer. */
    static final class Segment {
        final String id;
        private final StringBuilder text;
        /** Its words spread over its audio when the provider gives none (a speech-to-speech model's transcript). */
        private final boolean estimateWords;
        private final Deque<byte[]> audio = new ArrayDeque<>();
        private final List<HeardText.Word> words = new ArrayList<>();
        private Instant askedAt;
        private boolean heard;
        private boolean done;
        /** Written while the agent was held: the voice is asked for it once the agent resumes (or never). */
        private boolean deferred;
        private long startMs = -1;
        /** Bytes of its audio, from its start, that went to the carrier before it was restarted: not played twice. */
        private long skip;

        Segment(String id, String text, Instant askedAt, boolean estimateWords) {
            this.id = id;
            this.text = new StringBuilder(text);
            this.askedAt = askedAt;
            this.estimateWords = estimateWords;
        }

        /** When its audio was asked for (again, after a restart). */
        Instant askedAt() {
            return askedAt;
        }

        boolean deferred() {
            return deferred;
        }

        /** Its audio is not asked for yet (the agent is held), or is now, at {@code now}. */
        void defer(boolean later, Instant now) {
            deferred = later;
            askedAt = now;
        }

        String text() {
            return text.toString();
        }

        /** What the segment says, from now on (a recording's transcript once it loaded, a model's final text). */
        void text(String said) {
            text.setLength(0);
            text.append(said);
        }

        /** More of what it says (a speech-to-speech model's transcript, as it is written). */
        void appendText(String delta) {
            text.append(delta);
        }

        /** Audio of the segment, in order (after a restart, what was already played of it is dropped). */
        void audio(byte[] bytes) {
            heard = true;
            if (skip >= bytes.length) {
                skip -= bytes.length;
                return;
            }
            audio.addLast(skip == 0 ? bytes : Arrays.copyOfRange(bytes, (int) skip, bytes.length));
            skip = 0;
        }

        /** Where the segment's words fall on its audio, when the voice says so. */
        void words(List<HeardText.Word> timed) {
            words.addAll(timed);
        }

        /** All of its audio came. */
        void done() {
            heard = true;
            done = true;
        }

        /** Whether any of its audio (or its end) came: a segment still silent after a while is a voice that stalled. */
        boolean heard() {
            return heard;
        }

        /** Whether its audio started on the answer's timeline. */
        boolean started() {
            return startMs >= 0;
        }

        private HeardText.Sentence sentence(long endMs, long queuedMs) {
            String said = text.toString().strip();
            List<HeardText.Word> timed = estimateWords && words.isEmpty()
                    ? HeardText.spread(said, queuedMs - startMs) : words;
            return new HeardText.Sentence(said, startMs, endMs, timed);
        }
    }

    /** Its latency, measured where it is spent. */
    final TurnLatency latency = new TurnLatency();
    private final Framer framer;
    private final int frameBytes;
    private final int frameMs;
    private final byte silence;
    private final Deque<Segment> segments = new ArrayDeque<>();
    /** Framed audio not yet sent, with {@link #SEGMENT_END} where segments end. */
    private final Deque<byte[]> out = new ArrayDeque<>();
    private final List<HeardText.Sentence> sentences = new ArrayList<>();
    private long queuedMs;
    private boolean complete;
    private boolean speaking;

    Speech(int frameBytes, int frameMs, byte silence) {
        this.framer = new Framer(frameBytes);
        this.frameBytes = frameBytes;
        this.frameMs = frameMs;
        this.silence = silence;
    }

    /** A segment to be said after the ones before it. */
    Segment add(String id, String text, Instant askedAt, boolean estimateWords) {
        Segment s = new Segment(id, text, askedAt, estimateWords);
        segments.addLast(s);
        return s;
    }

    /** The segment of that id still to be played, or null (a cancelled answer's late audio). */
    Segment segment(String id) {
        for (Segment s : segments) {
            if (s.id.equals(id)) {
                return s;
            }
        }
        return null;
    }

    /** The segments still to be played, the first being played. */
    Iterable<Segment> segments() {
        return segments;
    }

    /** The segment being played (or waiting for its audio), or null. */
    Segment first() {
        return segments.peekFirst();
    }

    /** Nothing of it waits to be played now (more may still come). */
    boolean nothingQueued() {
        return segments.isEmpty() && out.isEmpty();
    }

    /** Nothing more will be added: once all of it played, the answer is over. */
    void complete() {
        complete = true;
    }

    boolean isComplete() {
        return complete;
    }

    /** Whether its first frame went to the carrier. */
    boolean speaking() {
        return speaking;
    }

    void startedSpeaking() {
        speaking = true;
    }

    /** Milliseconds of audio framed so far on the answer's timeline. */
    long queuedMs() {
        return queuedMs;
    }

    /**
     * Frames the audio that came, segment by segment in order: a segment's audio waits until the ones before it are
     * complete; a complete segment is padded to a whole frame and its sentence takes its place on the timeline.
     */
    void frame() {
        while (!segments.isEmpty()) {
            Segment s = segments.peekFirst();
            while (!s.audio.isEmpty()) {
                for (byte[] frame : framer.push(s.audio.pollFirst())) {
                    queue(s, frame);
                }
            }
            if (!s.done) {
                return;
            }
            byte[] last = framer.flush(silence);
            if (last.length > 0) {
                queue(s, last);
            }
            if (s.started()) {
                if (!s.text.isEmpty() && !s.text().isBlank()) {
                    sentences.add(s.sentence(queuedMs, queuedMs));
                }
                out.addLast(SEGMENT_END);
            }
            segments.pollFirst();
        }
    }

    private void queue(Segment s, byte[] frame) {
        if (s.startMs < 0) {
            s.startMs = queuedMs;
        }
        out.addLast(frame);
        queuedMs += frameMs;
    }

    /**
     * The segment's audio comes again from its start (its voice reconnected, or retried a request that failed part
     * way): what of it was framed but not yet sent is dropped, and as much of the new audio as was already sent to the
     * carrier is skipped, so the caller hears the sentence go on rather than start again.
     */
    void restart(Segment s, Instant now) {
        s.askedAt = now;
        s.heard = false;
        s.done = false;
        s.words.clear();
        s.audio.clear();
        s.skip = 0;
        if (s != segments.peekFirst()) {
            return; // nothing of it was framed yet
        }
        framer.flush(silence); // its partial frame: not sent
        if (!s.started()) {
            return;
        }
        long framedMs = queuedMs - s.startMs;
        long unsentMs = 0;
        while (!out.isEmpty() && out.peekLast() != SEGMENT_END) { // the head's frames are the last ones queued
            out.pollLast();
            unsentMs += frameMs;
        }
        queuedMs -= unsentMs;
        framer.flush(silence);
        long sentMs = framedMs - unsentMs;
        if (sentMs <= 0) {
            s.startMs = -1;
        } else {
            s.skip = sentMs * frameBytes / frameMs;
        }
    }

    /**
     * Frames that were sent but never heard (a hold cleared them at the carrier) go back in front, newest first as
     * given, to be sent again: the answer's timeline does not change.
     */
    void unsend(List<byte[]> newestFirst) {
        newestFirst.forEach(out::addFirst);
    }

    /** The next frame (or {@link #SEGMENT_END}) to send, without taking it; null when none waits. */
    byte[] peek() {
        return out.peekFirst();
    }

    byte[] poll() {
        return out.pollFirst();
    }

    /** Everything it will say was framed and sent. */
    boolean drained() {
        return complete && segments.isEmpty() && out.isEmpty();
    }

    /**
     * What the caller heard of it, {@code heardMs} into its audio: the sentences played in full and the words of the
     * one in progress that were played (see {@link HeardText}).
     */
    String heard(long heardMs) {
        List<HeardText.Sentence> said = new ArrayList<>(sentences);
        Segment current = segments.peekFirst();
        if (current != null && current.started()) { // its audio was still coming: its end unknown
            said.add(current.sentence(Long.MAX_VALUE, queuedMs));
        }
        return HeardText.of(said, heardMs);
    }

    /** All it said so far, played or not (the sentences framed, then the one being framed). */
    String said() {
        List<String> texts = new ArrayList<>();
        sentences.forEach(s -> texts.add(s.text()));
        Segment current = segments.peekFirst();
        if (current != null && !current.text.isEmpty()) {
            texts.add(current.text());
        }
        return String.join(" ", texts);
    }

    /**
     * The audio another answer left unplayed (one the caller could not interrupt, overtaken by the model's next
     * answer) plays first; this answer's timeline continues from it.
     */
    void after(Speech previous) {
        out.addAll(previous.out);
        queuedMs = previous.queuedMs;
    }
}
