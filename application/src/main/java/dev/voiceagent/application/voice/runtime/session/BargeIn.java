package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.VoiceMetrics;
import dev.voiceagent.domain.conversation.FeedbackEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * The caller speaking over the agent, as the session acts on {@code TurnTaking}'s decisions: the agent is held
 * (silent at once, its place kept) and resumed, or cut, with what the caller heard of it; and whether the caller may
 * cut in at all (an answer that cannot be interrupted shows the caller as muted). The barge-in's latency is measured
 * once, when the agent fell silent. On the call's loop only.
 */
final class BargeIn {

    private final CallLoop loop;
    private final Playback playback;
    private final Generation generation;
    private final VoiceMetrics metrics;
    private final CallLog log;
    /** When voice activity heard the caller start, or null. */
    private final Supplier<Instant> callerStarted;
    /** When the agent fell silent for the caller now speaking over it (held, then maybe cut), or null. */
    private Instant silencedAt;
    private boolean muted;

    BargeIn(CallLoop loop, Playback playback, Generation generation, VoiceMetrics metrics, CallLog log,
            Supplier<Instant> callerStarted) {
        this.loop = loop;
        this.playback = playback;
        this.generation = generation;
        this.metrics = metrics;
        this.log = log;
        this.callerStarted = callerStarted;
    }

    /** The caller began speaking over the agent: silent at once, its place kept (see {@link Playback#hold}). */
    void hold() {
        if (playback.current() == null || playback.held()) {
            return;
        }
        playback.hold();
        silenced();
    }

    /**
     * It was no turn: the agent goes on where the caller stopped hearing it, and the voice is asked for the sentences of
     * {@code a} (the answer playing, or null) written meanwhile.
     */
    void resume(Answer a) {
        if (playback.held()) {
            silencedAt = null;
            metrics.resumed();
            if (a != null) {
                generation.resumed(a);
            }
            playback.resume();
        }
    }

    /**
     * The caller's turn: the current answer is cut. Returns what the caller heard of {@code a} (null when there was no
     * answer); its figures and the interruption are logged.
     */
    String cut(Answer a) {
        boolean held = playback.held(); // then it fell silent at the hold, and that was measured
        long heardMs = playback.cut();
        if (a == null) {
            silencedAt = null;
            return null;
        }
        if (!held) {
            silenced();
        }
        String heard = a.speech.heard(heardMs);
        Instant started = callerStarted.get();
        log.heard();
        log.add(new FeedbackEvent.Interruption(heard, heardMs,
                started == null ? null : Duration.between(started, silencedAt).toMillis(), false));
        silencedAt = null;
        if (a.speech.speaking()) {
            log.add(new FeedbackEvent.BotStoppedSpeaking(true));
            unmute();
        }
        return heard;
    }

    private void silenced() {
        silencedAt = loop.now();
        Instant started = callerStarted.get();
        if (started != null) {
            metrics.interrupted(Duration.between(started, silencedAt));
        }
    }

    /** An answer began to play: the caller shows as muted while one that cannot be interrupted plays. */
    void speaking(boolean interruptible) {
        if (!interruptible && !muted) {
            // the caller cannot cut in until this answer is over: the reference dashboard warns one who tries
            muted = true;
            log.add(new FeedbackEvent.UserMute(true));
        }
    }

    /** An answer stopped playing. */
    void unmute() {
        if (muted) {
            muted = false;
            log.add(new FeedbackEvent.UserMute(false));
        }
    }
}
