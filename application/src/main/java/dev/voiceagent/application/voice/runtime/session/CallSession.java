package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.RecordedPrompts;
import dev.voiceagent.application.voice.runtime.port.in.MediaInput;
import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.application.voice.runtime.port.out.VoiceMetrics;
import dev.voiceagent.domain.conversation.FeedbackEvent;
import dev.voiceagent.domain.voice.EchoGate;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One call's session, whichever model answers (the pipeline's {@link VoiceSession}, a speech-to-speech model's
 * {@link SpeechToSpeechSession}): what the carrier sends arrives here on the call's {@link CallLoop} (so nothing needs a
 * lock, nothing blocks), the agent's audio goes out through the {@link Playback}, the call's events through its
 * {@link CallLog}, its recording as it happens; a tick drives time. A session ends once, here: its streams close,
 * its last words are recorded, its log says why, the media closes (unless the carrier is taking the call elsewhere),
 * and {@code onEnd} gets what the call left ({@link Ended}). Subclasses decide who speaks when.
 */
public abstract class CallSession implements MediaInput {

    static final Duration TICK = Duration.ofMillis(20);

    final CallLoop loop;
    final MediaChannel media;
    final VoiceMetrics metrics;
    final CallLog log;
    final CallRecording recording;
    /** The agent's audio sent, for telling its echo on the caller's line from the caller (see {@link EchoGate}). */
    final EchoGate echo = new EchoGate();
    final Playback playback;
    private final Consumer<Ended> onEnd;
    private AutoCloseable ticker;
    Instant connectedAt;
    /** Why the call failed (a provider), or null. */
    String failure;
    boolean ended;

    CallSession(CallLine line, Consumer<Ended> onEnd) {
        this.loop = line.loop();
        this.media = line.media();
        this.metrics = line.metrics();
        this.onEnd = onEnd;
        this.log = new CallLog(loop, media, new CallTrace(line.trace(), loop.now()));
        this.recording = new CallRecording(line.recording(), media.format().bytes(Playback.FRAME_MS),
                Playback.silence(media.format()));
        this.playback = new Playback(loop, media, recording, echo, line.ambience());
    }

    /**
     * The media connected: the session opens its streams (a provider the runtime cannot speak to throws here, before
     * anything is said), starts its clock and the agent opens the call.
     */
    public abstract void connected();

    /** Time passes: every {@link #TICK} while the call talks. */
    abstract void tick();

    final void startTicking() {
        ticker = loop.every(TICK, () -> {
            tick();
            if (!ended) {
                playback.fill(); // after the session's own pump, so the agent's frames go first
            }
        });
    }

    /**
     * The agent opens with a pre-recorded greeting: its recording is read (off the loop, from the prompts' cache) and
     * {@code play} gets it on the loop; a recording that cannot be played is skipped as text chat skips it, the reason
     * in the log, and {@code instead} opens the call. Neither runs once the call ended or {@code current} says something
     * else began meanwhile.
     */
    final void greet(String recordingId, Function<String, Uni<RecordedPrompts.Prompt>> prompts,
            BooleanSupplier current, Consumer<RecordedPrompts.Prompt> play, Runnable instead) {
        prompts.apply(recordingId).subscribe().with(
                prompt -> loop.execute(() -> {
                    if (current.getAsBoolean() && !ended) {
                        play.accept(prompt);
                    }
                }),
                failure -> loop.execute(() -> {
                    if (current.getAsBoolean() && !ended) {
                        log.add(FeedbackEvent.PipelineError.warning("the greeting's recording " + recordingId
                                + " cannot be played: " + failure.getMessage()));
                        instead.run();
                    }
                }));
    }

    @Override
    public void marked(String name) {
        if (!ended) {
            playback.marked(name);
        }
    }

    @Override
    public void broken(String why) {
        if (!ended) {
            failure = why;
            metrics.providerFailed("media");
            log.add(FeedbackEvent.PipelineError.fatal(why));
            end(Ended.PIPELINE_ERROR);
        }
    }

    /** Whether the call is over (here: it may have moved to another replica). */
    public boolean isEnded() {
        return ended;
    }

    /** Nothing more is said or heard here: the clock stops, the playback and the session's streams close. */
    final void stop() {
        ended = true;
        Timers.close(ticker);
        playback.stop();
        release();
    }

    /** Closes the session's own streams (the model's, the voice's, the recognizer's). */
    abstract void release();

    /** Why the call ends, given why it was asked to (a session may say otherwise: a voicemail stays one). */
    String reason(String why) {
        return why;
    }

    /** What the call leaves, ending now for {@code reason}. */
    abstract Ended ended(String reason, Instant at);

    /** The call ends here, once. */
    final void end(String why) {
        if (ended) {
            return;
        }
        String reason = reason(why);
        stop();
        recording.flush();
        log.ended(reason);
        if (!Ended.TRANSFER.equals(reason)) { // closing the stream first would hang up before the carrier transferred
            media.close(reason);
        }
        onEnd.accept(ended(reason, loop.now()));
    }
}
