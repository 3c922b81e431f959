package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.RecordedPrompts;
import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.domain.conversation.FeedbackEvent;
import io.smallrye.mutiny.Uni;
import java.util.function.Function;

/**
 * Recordings said in an answer's place: a pre-recorded greeting, a transition's recorded speech. Their audio (converted
 * to the call's format, from the prompts' cache) is a segment of the answer like a sentence of the voice, and their
 * transcript what the conversation says was said. On the call's loop only.
 */
final class RecordedSpeech {

    private final CallLoop loop;
    private final CallLog log;
    private final Playback playback;
    private final Function<String, Uni<RecordedPrompts.Prompt>> prompts;

    RecordedSpeech(CallLoop loop, CallLog log, Playback playback,
            Function<String, Uni<RecordedPrompts.Prompt>> prompts) {
        this.loop = loop;
        this.log = log;
        this.playback = playback;
        this.prompts = prompts;
    }

    /**
     * A recording in the answer's place, played when it has loaded; one that cannot be played is skipped with the
     * reason in the log, the answer goes on.
     */
    void play(Answer a, String recordingId) {
        Speech.Segment segment = a.speech.add(a.nextSegment('r'), "", loop.now(), false);
        prompts.apply(recordingId).subscribe().with(
                prompt -> loop.execute(() -> {
                    if (live(segment)) {
                        segment.text(prompt.transcript() == null ? "" : prompt.transcript());
                        log.add(new FeedbackEvent.BotText(segment.text(), FeedbackEvent.Said.RECORDING));
                        played(a, segment, prompt.audio());
                    }
                }),
                failure -> loop.execute(() -> {
                    if (live(segment)) {
                        log.add(FeedbackEvent.PipelineError.warning("the recording " + recordingId
                                + " cannot be played: " + failure.getMessage()));
                        segment.done();
                        playback.pump();
                    }
                }));
    }

    /** A recorded greeting opens the call: its audio is the answer's first segment. */
    void greet(Answer a, RecordedPrompts.Prompt prompt) {
        Speech.Segment segment = a.speech.add("a" + a.id + "rec", prompt.transcript(), loop.now(), false);
        log.add(new FeedbackEvent.BotText(prompt.transcript(), FeedbackEvent.Said.RECORDING));
        played(a, segment, prompt.audio());
    }

    private void played(Answer a, Speech.Segment segment, byte[] audio) {
        a.speech.latency.firstAudio(loop.now());
        segment.audio(audio);
        segment.done();
        playback.pump();
    }

    /** Whether the segment still belongs to the speech playing (not a cut answer's). */
    private boolean live(Speech.Segment segment) {
        Speech s = playback.current();
        return s != null && s.segment(segment.id) == segment;
    }
}
