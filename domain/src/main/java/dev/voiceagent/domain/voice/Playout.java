package dev.voiceagent.domain.voice;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * What the caller has heard of the agent's audio, and how much more may be queued at the carrier. The carrier plays
 * what it is sent in real time and echoes each mark when the audio queued before it has played (Twilio's
 * {@code mark}); between marks the played position advances with the clock. The session sends audio only while the
 * queue is shorter than {@code lead} (so a barge-in's {@code clear} drops little and the position stays exact), puts a
 * mark every {@code markEvery} of audio and at each sentence's end, and asks {@link #playedMs} how far the caller got
 * when it interrupts. One instance per call; positions are milliseconds of audio since the answer began.
 */
public final class Playout {

    private record Mark(String name, long positionMs) {
    }

    private final Duration lead;
    private final long markEveryMs;
    private final Deque<Mark> pending = new ArrayDeque<>();
    private long sentMs;
    private long lastMarkMs;
    private long markSeq;
    private long anchorMs;
    private Instant anchorAt;

    public Playout(Duration lead, Duration markEvery) {
        if (!lead.isPositive() || !markEvery.isPositive()) {
            throw new DomainRuleViolation("playout lead and mark spacing must be positive");
        }
        this.lead = lead;
        this.markEveryMs = markEvery.toMillis();
    }

    /** 200 ms ahead of the caller's ear at most, a mark every half second. */
    public static Playout standard() {
        return new Playout(Duration.ofMillis(200), Duration.ofMillis(500));
    }

    /**
     * Audio of {@code ms} went to the carrier at {@code now}. Returns the name of a mark to send after it when half a
     * second (or the configured spacing) of audio has gone since the last one.
     */
    public Optional<String> sent(long ms, Instant now) {
        if (ms < 0) {
            throw new DomainRuleViolation("audio cannot have a negative length");
        }
        if (anchorAt == null || playedMs(now) >= sentMs) {
            // nothing queued: playback (re)starts now, from what was sent so far
            anchorMs = sentMs;
            anchorAt = now;
        }
        sentMs += ms;
        return sentMs - lastMarkMs >= markEveryMs ? Optional.of(mark("m")) : Optional.empty();
    }

    /**
     * A sentence ended: a mark to send so its end is known exactly (empty when a mark already stands there). Its
     * name starts with "s" (the half-second marks' with "m"), so whoever plays the audio knows where sentences end.
     */
    public Optional<String> sentenceEnd() {
        return sentMs > lastMarkMs ? Optional.of(mark("s")) : Optional.empty();
    }

    private String mark(String kind) {
        String name = kind + ++markSeq;
        pending.addLast(new Mark(name, sentMs));
        lastMarkMs = sentMs;
        return name;
    }

    /**
     * The carrier echoed a mark at {@code now}: everything before it has played. Marks of audio since cleared, and
     * names this playout never sent, are ignored. Returns whether the mark was known.
     */
    public boolean marked(String name, Instant now) {
        if (pending.stream().noneMatch(m -> m.name().equals(name))) {
            return false;
        }
        Mark m;
        do {
            m = pending.removeFirst(); // marks come back in order; an earlier one missing has played too
        } while (!m.name().equals(name));
        anchorMs = m.positionMs();
        anchorAt = now;
        return true;
    }

    /** How far the caller has heard at {@code now}: the last echoed mark plus the time since, at most what was sent. */
    public long playedMs(Instant now) {
        if (anchorAt == null) {
            return 0;
        }
        long since = Math.max(0, Duration.between(anchorAt, now).toMillis());
        return Math.min(sentMs, anchorMs + since);
    }

    /** How many more milliseconds of audio may go to the carrier now without queuing more than the lead. */
    public long roomMs(Instant now) {
        return Math.max(0, lead.toMillis() - (sentMs - playedMs(now)));
    }

    /** Everything sent has played, confirmed by its last mark (the end of a goodbye waits for this, not the clock). */
    public boolean allPlayed() {
        return pending.isEmpty() && sentMs == lastMarkMs;
    }

    /** Milliseconds of the audio sent that the caller has not heard at {@code now} (what a clear drops). */
    public long unheardMs(Instant now) {
        return sentMs - playedMs(now);
    }

    /**
     * The agent is held at {@code now}: the carrier's queue was cleared and the last {@code ms} of what was sent will be
     * sent again when the answer resumes. The position goes back by that much, marks past it are forgotten.
     */
    public void rewind(long ms, Instant now) {
        if (ms < 0 || ms > sentMs) {
            throw new DomainRuleViolation("cannot rewind " + ms + " ms of " + sentMs + " ms sent");
        }
        sentMs -= ms;
        long position = sentMs;
        pending.removeIf(m -> m.positionMs() > position);
        lastMarkMs = Math.min(lastMarkMs, position);
        anchorMs = position;
        anchorAt = now;
    }

    /**
     * The answer ends at {@code now}: the caller barged in and the carrier's queue was cleared, or it played out.
     * Returns how much of it the caller heard (for {@link HeardText}) and starts the next answer from zero. Marks still
     * pending are forgotten (the carrier may echo them; they are ignored).
     */
    public long clear(Instant now) {
        long heard = playedMs(now);
        pending.clear();
        sentMs = 0;
        lastMarkMs = 0;
        anchorMs = 0;
        anchorAt = null;
        return heard;
    }
}
