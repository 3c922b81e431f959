package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.port.out.CallCheckpoint;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.AgentEngine.Step;
import dev.voiceagent.domain.conversation.ConversationState;
import dev.voiceagent.domain.conversation.FeedbackEvent;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.voice.TurnTaking;
import dev.voiceagent.domain.voice.VoiceCommand;
import dev.voiceagent.domain.voice.VoiceEvent;
import dev.voiceagent.domain.voice.VoicemailDetection;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One call on the pipeline: the caller's audio heard by voice activity and speech-to-text ({@link CallerAudio}),
 * {@link TurnTaking} deciding who speaks, the {@link AgentEngine} answering on the streamed language model, each answer
 * spoken sentence by sentence as it is written ({@link Generation}) and played to the carrier with marks
 * ({@link Playback}), a barge-in cutting it short where the caller stopped hearing it, the first turn of an outbound
 * call screened for a voicemail ({@link VoicemailScreen}). Everything runs on the call's loop.
 */
public final class VoiceSession extends CallSession {

    /** What the agent says when the caller stays silent. */
    static final String IDLE_PROMPT = "Are you still there?";
    /** What the caller hears when a provider fails mid-call, before the call ends. */
    static final String FALLBACK_LINE = "I'm sorry, I'm having trouble right now. Please call back later.";
    /** How long a failed call waits for its fallback line to be heard. */
    static final Duration FALLBACK_LIMIT = Duration.ofSeconds(10);
    /** What the caller hears when the call continues on another replica. */
    static final String RESUME_LINE = "Sorry about that. Where were we?";

    /**
     * Everything a session works with; {@code voicemail} null when the call does not detect one (inbound calls);
     * {@code compaction}: a long call's older turns are summarised ({@link Summaries}).
     */
    public record Parts(CallLine line, Listening listening, Answering answering, TurnTaking rules,
            Voicemail voicemail, boolean compaction) {

        public Parts(CallLine line, Listening listening, Answering answering, TurnTaking rules, Voicemail voicemail) {
            this(line, listening, answering, rules, voicemail, false);
        }
    }

    private final Parts parts;
    private final AgentEngine engine;
    private final Moves moves;
    private final CallerAudio caller;
    private final Generation generation;
    private final VoicemailScreen screen;
    private final Summaries summaries;
    private final BargeIn bargeIn;
    private TurnTaking.State state = TurnTaking.State.INITIAL;
    private ConversationState conversation;
    private TokenUsage tokens = TokenUsage.ZERO;
    private Answer answer;
    private int answerSeq;
    private Instant failedAt;
    /** When the last final transcript came (the stt_final stage of the answer it leads to). */
    private Instant finalTranscriptAt;

    /** A session that may continue a call another replica let go ({@code moves.resumed()}), or be moved itself. */
    public VoiceSession(Parts parts, ConversationState start, Consumer<Ended> onEnd, Moves moves) {
        super(parts.line(), onEnd);
        this.parts = parts;
        this.engine = parts.answering().engine();
        this.moves = moves;
        this.conversation = start;
        this.caller = new CallerAudio(loop, media.format(), parts.listening(), recording, echo, log, metrics,
                this::heard, this::failed);
        this.generation = new Generation(loop, log, metrics, playback, parts.answering(), this::step, this::failed);
        this.screen = new VoicemailScreen(parts.voicemail(), moves.resumed() != null, parts.answering().model(), loop,
                log, this::screened);
        this.summaries = new Summaries(parts.compaction(), generation, loop, log, spent -> {
            tokens = tokens.plus(spent);
            generation.used(spent);
        });
        this.bargeIn = new BargeIn(loop, playback, generation, metrics, log, caller::speechStartedAt);
        playback.listen(this::speaking, this::played);
        CallCheckpoint resumed = moves.resumed();
        if (resumed != null) { // the call goes on where its last finished turn left it
            this.conversation = resumed.conversation();
            this.tokens = resumed.tokens();
            this.log.restore(resumed.events());
        }
    }

    // ---- what the carrier sends (on the loop) ----

    /** The media connected: the recognizer and the voice open, and the agent opens the call. */
    @Override
    public void connected() {
        caller.open();
        try {
            generation.open();
        } catch (RuntimeException e) {
            caller.close();
            throw e;
        }
        CallCheckpoint resumed = moves.resumed();
        connectedAt = resumed != null && resumed.connectedAt() != null ? resumed.connectedAt() : loop.now();
        startTicking();
        decide(new VoiceEvent.Connected(connectedAt));
    }

    @Override
    public void audio(byte[] frame) {
        if (!ended) {
            caller.audio(frame);
        }
    }

    @Override
    public void dtmf(String digit) {
        if (!ended) {
            log.add(new FeedbackEvent.UserDtmf(digit));
            decide(new VoiceEvent.Dtmf(loop.now(), digit));
        }
    }

    @Override
    public void stopped() {
        if (!ended) {
            decide(new VoiceEvent.Hungup(loop.now()));
        }
    }

    @Override
    public void lost() {
        if (media.resumable()) {
            move("stream_lost");
        } else {
            stopped();
        }
    }

    /**
     * This replica drains: a call whose carrier re-streams it is let go now (its checkpoint kept, its stream closed),
     * to be taken over by another replica; any other call stays until it ends.
     */
    public void handOver() {
        if (!ended && media.resumable()) {
            move("handed_over");
        }
    }

    /** The carrier's answering-machine detection decided: the voicemail screen acts on it (see there). */
    public void carrierAmd(String verdict) {
        if (!ended) {
            screen.carrierAmd(verdict, conversation.userTurns());
        }
    }

    // ---- moving between replicas ----

    /** Where the call stands after its last finished turn. */
    private CallCheckpoint checkpoint(int moved) {
        return moves.checkpoint(conversation, log.events(), tokens.plus(screen.spent()), caller.seconds(),
                generation.characters(), connectedAt, moved);
    }

    /** The call leaves this replica: nothing more is said or heard here, and the run is not finished. */
    private void move(String why) {
        if (ended) {
            return;
        }
        stop();
        log.add(new FeedbackEvent.CallMoved(why));
        media.close(why);
        moves.moved().accept(checkpoint(1));
    }

    // ---- turn-taking ----

    @Override
    void tick() {
        if (ended) {
            return;
        }
        playback.pump();
        if (failure != null && Duration.between(failedAt, loop.now()).compareTo(FALLBACK_LIMIT) > 0) {
            end(Ended.PIPELINE_ERROR); // the fallback line never came
            return;
        }
        if (stalled() || screen.tick(caller.speechStartedAt(), caller.speechStoppedAt())) {
            return;
        }
        decide(new VoiceEvent.Tick(loop.now()));
    }

    /** A provider that stopped answering mid-turn failed: the caller hears the fallback line, not silence. */
    private boolean stalled() {
        if (answer == null || failure != null) {
            return false;
        }
        String stall = generation.stalled(answer, loop.now());
        if (stall != null) {
            failed(stall);
        }
        return stall != null;
    }

    private void decide(VoiceEvent event) {
        if (ended || failure != null && !(event instanceof VoiceEvent.Hungup)) {
            return; // a failed call only plays its fallback line out (or the caller hangs up)
        }
        TurnTaking.Decision decision = parts.rules().decide(state, event);
        state = decision.state();
        String carried = null; // the caller's words of an answer cut before they heard any of it
        for (VoiceCommand command : decision.commands()) {
            if (ended) {
                return;
            }
            if (screen.detected() && !(command instanceof VoiceCommand.Hangup)) {
                continue; // a voicemail: nothing is answered or prompted; only its message is said
            }
            switch (command) {
                case VoiceCommand.Open open -> open();
                case VoiceCommand.Respond respond -> {
                    String said = carried == null ? respond.userText() : carried + " " + respond.userText();
                    carried = null;
                    if (screen.screening()) {
                        screen.classify(said, answer(null, said));
                    } else {
                        respond(said);
                    }
                }
                case VoiceCommand.FinalizeTranscript f -> caller.finalizeNow();
                case VoiceCommand.Interrupt interrupt -> carried = interrupt();
                case VoiceCommand.Hold hold -> bargeIn.hold();
                case VoiceCommand.Resume resume -> bargeIn.resume(answer);
                case VoiceCommand.PromptIdle idle -> {
                    say(IDLE_PROMPT);
                    log.add(new FeedbackEvent.BotText(IDLE_PROMPT));
                }
                case VoiceCommand.Hangup hangup -> end(hangup.reason());
            }
        }
        if (carried != null) { // answered with the turn now in progress
            state = state.carrying(carried);
        }
    }

    // ---- the agent's turns ----

    /**
     * The agent opens the call: a call that continues here says a short line, then the caller speaks; a pre-recorded
     * greeting is played from its recording (its transcript is what the conversation says was said), and when it
     * cannot be played it is skipped as text chat skips it (the model speaks first) with the reason in the log;
     * otherwise the engine's opening turn.
     */
    private void open() {
        if (moves.resumed() != null) {
            say(RESUME_LINE);
            log.add(new FeedbackEvent.CallResumed(RESUME_LINE, moves.resumed().moves()));
            return;
        }
        Optional<String> recording = engine.greetingRecording();
        if (recording.isEmpty()) {
            begin(engine.open(conversation), null);
            return;
        }
        Answer waiting = answer(null, null); // the agent is about to speak: nothing to cancel yet
        greet(recording.get(), parts.answering().prompts(), () -> answer == waiting, prompt -> {
            Answer a = answer(engine.openRecorded(conversation, prompt.transcript()), null);
            generation.greet(a, prompt);
            step(a);
        }, () -> begin(engine.open(conversation), null));
    }

    private void respond(String userText) {
        if (conversation.ended()) {
            end(conversation.endReason());
            return;
        }
        try {
            begin(engine.reply(conversation, userText), userText);
        } catch (RuntimeException limit) { // the turn limit: the conversation is over
            end(Ended.PIPELINE_ERROR);
        }
    }

    /** A line the session says by itself, as one utterance (an idle prompt, the fallback line, a resumed call's). */
    private void say(String line) {
        Answer a = answer(null, null);
        a.finish();
        generation.say(a, line);
    }

    /** A new answer, now the one playing. */
    private Answer answer(AgentEngine.Turn turn, String userText) {
        Answer a = new Answer(++answerSeq, turn, userText, playback.speech());
        answer = a;
        playback.play(a.speech);
        return a;
    }

    private void noAnswer() {
        answer = null;
        playback.play(null);
    }

    private void begin(AgentEngine.Turn turn, String userText) {
        step(answer(turn, userText));
    }

    /** Runs the engine's turn on until it waits for the model or a tool, or finishes. */
    private void step(Answer a) {
        if (a != answer || ended) {
            return;
        }
        Step step = a.turn.next();
        generation.sayNewOutputs(a);
        switch (step) {
            case Step.AskModel ask -> generation.ask(a, ask);
            case Step.RunTool tool -> generation.run(a, tool, parts.answering().tools());
            case Step.Finished finished -> {
                a.finish();
                AgentEngine.TurnResult result = finished.result();
                conversation = summaries.placed(result.state());
                tokens = tokens.plus(result.usage());
                generation.used(result.usage());
                log.turn(result, a.speech.speaking(), generation.modelName());
                a.endCall = result.state().ended() ? result.state().endReason() : null;
                if (a.endCall == null) {
                    moves.checkpoints().accept(checkpoint(0));
                    summaries.after(conversation);
                }
                playback.pump();
            }
        }
    }

    /**
     * The caller spoke over the agent: the carrier's queue, the model and the voice stop; what was heard stays.
     * Returns the caller's words the answer was for when they heard none of it (they join their next turn), or null.
     */
    private String interrupt() {
        Answer a = answer;
        answer = null;
        String heard = bargeIn.cut(a);
        if (a == null) {
            return null;
        }
        generation.cancel(a);
        String carried = a.carried(heard);
        if (carried == null) {
            conversation = a.kept(conversation, heard);
        }
        return carried;
    }

    /** What the voicemail screen decided, acted on. */
    private void screened(VoicemailScreen.Verdict verdict) {
        switch (verdict) {
            case VoicemailScreen.Person person -> {
                if (!ended && answer == person.ticket()) { // else the callee spoke on: their words join their next turn
                    if (person.late()) {
                        log.add(FeedbackEvent.PipelineError.warning("voicemail detection: no verdict within "
                                + VoicemailScreen.CLASSIFY_WAIT.toSeconds() + " s"));
                    }
                    noAnswer();
                    respond(person.calleeSaid());
                }
            }
            case VoicemailScreen.Machine machine -> {
                if (machine.greeting() != null) {
                    conversation = conversation.cutShort(machine.greeting(), null);
                }
                if (machine.hangUp()) {
                    end(VoicemailDetection.DISPOSITION);
                    return;
                }
                Answer a = answer;
                noAnswer();
                if (a != null && (a.speech.speaking() || a.stream != null || a.speech.first() != null)) {
                    playback.cut(); // the agent was speaking: it stops
                    generation.cancel(a);
                }
            }
            case VoicemailScreen.LeaveMessage leave -> {
                Answer m = answer(null, null);
                m.finish();
                m.uninterruptible = true;
                m.endCall = VoicemailDetection.DISPOSITION;
                generation.sayAll(m, leave.message()); // sentence by sentence: the first is heard sooner
                log.add(new FeedbackEvent.BotText(leave.message(), FeedbackEvent.Said.VOICEMAIL));
                conversation = conversation.cutShort(null, leave.message());
            }
        }
    }

    // ---- failures and the end ----

    /** A provider failed mid-call: the caller hears the fallback line if the voice still works, then the call ends. */
    private void failed(String message) {
        if (ended) {
            return;
        }
        failure = message;
        failedAt = loop.now();
        metrics.providerFailed(message.startsWith("text-to-speech") ? "tts"
                : message.startsWith("speech-to-text") ? "stt" : "llm");
        log.add(FeedbackEvent.PipelineError.fatal(message)); // the call ends: at once without a voice, else after a line
        Answer a = answer;
        if (a != null) {
            generation.cancel(a);
        }
        long heardMs = playback.cut();
        if (a != null) { // the transcript keeps what the caller said and heard up to here
            conversation = a.keptOnFailure(conversation, a.speech.heard(heardMs));
        }
        if (message.startsWith("text-to-speech")) {
            end(Ended.PIPELINE_ERROR);
            return;
        }
        say(FALLBACK_LINE);
    }

    @Override
    void release() {
        state = new TurnTaking.State(TurnTaking.Phase.ENDED, state.connectedAt(), loop.now(), "", false, null, 0);
        if (answer != null && answer.stream != null) {
            answer.stream.cancel();
        }
        caller.close();
        generation.close();
        screen.close();
        summaries.close();
    }

    @Override
    String reason(String why) {
        return screen.reason(why);
    }

    @Override
    Ended ended(String reason, Instant at) {
        Answer a = answer;
        if (a != null && a.turn != null && failure == null) {
            // the call ended mid-answer (the caller hung up, its time ran out): what the caller said stays, and of
            // the answer what was heard
            conversation = a.keptOnFailure(conversation, a.speech.heard(playback.heardMs()));
        }
        return new Ended(reason, conversation, tokens.plus(screen.spent()), moves.speechBefore() + caller.seconds(),
                moves.charactersBefore() + generation.characters(), connectedAt, at, log.events(), failure,
                log.endDetails(), new ProviderShares(caller.fallbackSeconds(), generation.fallbackCharacters(),
                generation.fallbackTokens()));
    }

    // ---- what the caller's audio and the playback say (on the loop) ----

    /** Voice activity heard the caller start or stop, or the recognizer heard words. */
    private void heard(VoiceEvent event) {
        if (event instanceof VoiceEvent.Transcript t && t.text() != null && !t.text().isBlank()) {
            log.add(new FeedbackEvent.UserTranscription(t.text(), t.isFinal()));
            if (t.isFinal()) {
                finalTranscriptAt = t.at();
            }
        }
        decide(event);
    }

    /** An answer's first audio went to the caller. */
    private void speaking(Speech speech, Instant now) {
        Answer a = answer;
        Instant callerStopped = caller.speechStoppedAt();
        if (a.turn != null && callerStopped != null && a.userText != null) {
            speech.latency.report(callerStopped, finalTranscriptAt, now, generation.modelName(), log, metrics);
        }
        log.add(new FeedbackEvent.BotStartedSpeaking()); // the reference's order: figures, speaking, then the text
        log.heard();
        boolean interruptible = a.interruptible(failure != null);
        bargeIn.speaking(interruptible);
        decide(new VoiceEvent.AgentSpeaking(now, interruptible));
    }

    /** An answer was heard to its end. */
    private void played(Speech speech, Instant now) {
        Answer a = answer;
        answer = null;
        if (speech.speaking()) {
            log.add(new FeedbackEvent.BotStoppedSpeaking(false));
            bargeIn.unmute();
        }
        if (failure != null) { // the fallback line was heard
            conversation = conversation.cutShort(null, FALLBACK_LINE);
            end(Ended.PIPELINE_ERROR);
        } else if (screen.detected()) {
            end(VoicemailDetection.DISPOSITION); // the message was left
        } else {
            decide(new VoiceEvent.AgentDone(now, a.endCall));
        }
    }
}
