package dev.voiceagent.domain.voice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.domain.voice.TurnTaking.Phase;
import dev.voiceagent.domain.voice.VoiceCommand.FinalizeTranscript;
import dev.voiceagent.domain.voice.VoiceCommand.Hangup;
import dev.voiceagent.domain.voice.VoiceCommand.Hold;
import dev.voiceagent.domain.voice.VoiceCommand.Interrupt;
import dev.voiceagent.domain.voice.VoiceCommand.Open;
import dev.voiceagent.domain.voice.VoiceCommand.PromptIdle;
import dev.voiceagent.domain.voice.VoiceCommand.Respond;
import dev.voiceagent.domain.voice.VoiceCommand.Resume;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Turn-taking on a virtual clock: each test plays a call's events and reads the commands. */
class TurnTakingTest {

    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");

    private final TurnTaking turns = new TurnTaking(TurnRules.DEFAULT);
    private TurnTaking.State state = TurnTaking.State.INITIAL;
    private final List<VoiceCommand> commands = new ArrayList<>();

    private static Instant ms(long millis) {
        return T0.plusMillis(millis);
    }

    private List<VoiceCommand> on(VoiceEvent event) {
        TurnTaking.Decision d = turns.decide(state, event);
        state = d.state();
        commands.addAll(d.commands());
        return d.commands();
    }

    /** Ticks every 20 ms from {@code from} to {@code to}; the commands they gave. */
    private List<VoiceCommand> tick(long from, long to) {
        List<VoiceCommand> out = new ArrayList<>();
        for (long t = from; t <= to; t += 20) {
            out.addAll(on(new VoiceEvent.Tick(ms(t))));
        }
        return out;
    }

    /** Connected, the agent greeted (interruptible or not) and was heard to its end at 2 s. */
    private void greeted(boolean interruptible) {
        assertThat(on(new VoiceEvent.Connected(ms(0)))).containsExactly(new Open());
        on(new VoiceEvent.AgentSpeaking(ms(300), interruptible));
        on(new VoiceEvent.AgentDone(ms(2_000), null));
        assertThat(state.phase()).isEqualTo(Phase.LISTENING);
    }

    @Test
    void theCallersTurnEndsWithTheFinalTranscriptAfterSpeechStops() {
        greeted(false);
        on(new VoiceEvent.SpeechStarted(ms(2_500)));
        on(new VoiceEvent.Transcript(ms(3_000), "I would like", false));
        assertThat(on(new VoiceEvent.SpeechStopped(ms(3_400)))).containsExactly(new FinalizeTranscript());
        assertThat(on(new VoiceEvent.Transcript(ms(3_550), "I would like a table.", true)))
                .containsExactly(new Respond("I would like a table."));
        assertThat(state.phase()).isEqualTo(Phase.AGENT_THINKING);
    }

    @Test
    void wordsCarriedFromAnUnheardAnswerAreAnsweredWithTheNextOnesOrAlone() {
        greeted(true);
        on(new VoiceEvent.SpeechStarted(ms(2_500)));
        on(new VoiceEvent.SpeechStopped(ms(3_400)));
        on(new VoiceEvent.Transcript(ms(3_500), "No, that's all.", true));
        on(new VoiceEvent.SpeechStarted(ms(3_700))); // the caller goes on before the agent said anything
        assertThat(tick(3_700, 3_900)).as("the answer is held").containsExactly(new VoiceCommand.Hold());
        assertThat(on(new VoiceEvent.Transcript(ms(3_950), "thanks", false))).as("their words cut it")
                .containsExactly(new VoiceCommand.Interrupt());
        state = state.carrying("No, that's all.");
        on(new VoiceEvent.SpeechStopped(ms(4_200)));
        assertThat(on(new VoiceEvent.Transcript(ms(4_300), "thanks.", true)))
                .containsExactly(new Respond("No, that's all. thanks."));

        TurnTaking.State carried = state.carrying("Hello");
        state = new TurnTaking.State(Phase.AWAITING_TRANSCRIPT, carried.connectedAt(), ms(5_000), carried.heard(), true,
                null, 0);
        assertThat(tick(5_000, 7_000)).as("no final comes: the carried words are the turn")
                .containsExactly(new Respond("Hello"));
    }

    @Test
    void finalsHeardWhileTheCallerStillSpeaksBelongToTheSameTurn() {
        greeted(false);
        on(new VoiceEvent.SpeechStarted(ms(2_500)));
        on(new VoiceEvent.Transcript(ms(3_000), "Hello.", true));
        on(new VoiceEvent.SpeechStopped(ms(3_200)));
        on(new VoiceEvent.SpeechStarted(ms(3_400))); // a pause, then more
        on(new VoiceEvent.SpeechStopped(ms(4_000)));
        assertThat(on(new VoiceEvent.Transcript(ms(4_100), "Is anyone there?", true)))
                .containsExactly(new Respond("Hello. Is anyone there?"));
    }

    @Test
    void withoutAFinalTranscriptTheTurnGoesOnWithWhatWasHeardOrNotAtAll() {
        greeted(false);
        on(new VoiceEvent.SpeechStarted(ms(2_500)));
        on(new VoiceEvent.Transcript(ms(2_900), "Yes.", true));
        on(new VoiceEvent.SpeechStarted(ms(2_950)));
        on(new VoiceEvent.SpeechStopped(ms(3_000)));
        assertThat(tick(3_020, 4_480)).as("still waiting for the final").isEmpty();
        assertThat(tick(4_500, 4_500)).containsExactly(new Respond("Yes."));

        on(new VoiceEvent.AgentDone(ms(6_000), null));
        on(new VoiceEvent.SpeechStarted(ms(6_500))); // a cough: no words come
        on(new VoiceEvent.SpeechStopped(ms(6_600)));
        assertThat(tick(6_620, 8_200)).isEmpty();
        assertThat(state.phase()).isEqualTo(Phase.LISTENING);
    }

    /** The caller's first turn answered, the agent's (interruptible) answer playing from 3.2 s. */
    private void answering(TurnTaking rules) {
        assertThat(on(rules, new VoiceEvent.Connected(ms(0)))).containsExactly(new Open());
        on(rules, new VoiceEvent.AgentSpeaking(ms(300), true));
        on(rules, new VoiceEvent.AgentDone(ms(2_000), null));
        on(rules, new VoiceEvent.SpeechStarted(ms(2_500)));
        on(rules, new VoiceEvent.SpeechStopped(ms(2_600)));
        on(rules, new VoiceEvent.Transcript(ms(2_700), "Tell me more.", true));
        on(rules, new VoiceEvent.AgentSpeaking(ms(3_200), true));
        assertThat(state.phase()).isEqualTo(Phase.AGENT_SPEAKING);
    }

    private List<VoiceCommand> on(TurnTaking rules, VoiceEvent event) {
        TurnTaking.Decision d = rules.decide(state, event);
        state = d.state();
        commands.addAll(d.commands());
        return d.commands();
    }

    private List<VoiceCommand> tick(TurnTaking rules, long from, long to) {
        List<VoiceCommand> out = new ArrayList<>();
        for (long t = from; t <= to; t += 20) {
            out.addAll(on(rules, new VoiceEvent.Tick(ms(t))));
        }
        return out;
    }

    @Test
    void speakingOverAnInterruptibleAgentHoldsItAtOnceAndTheCallersWordsInterruptIt() {
        answering(turns);
        on(new VoiceEvent.SpeechStarted(ms(3_500))); // over the agent
        assertThat(tick(3_500, 3_680)).as("shorter than the barge-in time").isEmpty();
        assertThat(tick(3_700, 3_700)).as("silent at once, its place kept").containsExactly(new Hold());
        assertThat(state.phase()).isEqualTo(Phase.AGENT_HELD);
        assertThat(on(new VoiceEvent.Transcript(ms(3_900), "Stop, how", false))).as("words: a turn")
                .containsExactly(new Interrupt());
        assertThat(state.phase()).isEqualTo(Phase.USER_SPEAKING);
        assertThat(state.since()).as("the turn began when the caller did").isEqualTo(ms(3_500));
        on(new VoiceEvent.SpeechStopped(ms(4_200)));
        assertThat(on(new VoiceEvent.Transcript(ms(4_300), "Stop, how much is it?", true)))
                .containsExactly(new Respond("Stop, how much is it?"));
        assertThat(commands).filteredOn(Interrupt.class::isInstance).hasSize(1);
        assertThat(commands).noneMatch(Resume.class::isInstance);
    }

    @Test
    void aBackchannelOverTheAgentResumesItOnceTheCallerStoppedAndNothingIsAnswered() {
        answering(turns);
        on(new VoiceEvent.SpeechStarted(ms(3_500)));
        assertThat(tick(3_500, 3_700)).containsExactly(new Hold());
        assertThat(on(new VoiceEvent.Transcript(ms(3_800), "uh-huh", false))).as("a backchannel is no turn").isEmpty();
        assertThat(on(new VoiceEvent.SpeechStopped(ms(3_950)))).containsExactly(new FinalizeTranscript());
        assertThat(on(new VoiceEvent.Transcript(ms(4_100), "Uh huh.", true))).containsExactly(new Resume());
        assertThat(state.phase()).isEqualTo(Phase.AGENT_SPEAKING);
        assertThat(state.heard()).isEmpty();
        on(new VoiceEvent.AgentDone(ms(6_000), null));
        assertThat(state.phase()).as("the answer went on to its end").isEqualTo(Phase.LISTENING);
        assertThat(commands).noneMatch(Interrupt.class::isInstance).noneMatch(c -> c instanceof Respond r
                && r.userText().toLowerCase().contains("uh"));
    }

    @Test
    void aSoundWithoutWordsResumesTheAgentWhenTheRecognizerHasNothingOrItsWindowPasses() {
        answering(turns);
        on(new VoiceEvent.SpeechStarted(ms(3_500))); // a cough loud enough to pass voice activity
        tick(3_500, 3_700);
        on(new VoiceEvent.SpeechStopped(ms(3_800)));
        assertThat(on(new VoiceEvent.Transcript(ms(3_900), "", true))).as("nothing was said")
                .containsExactly(new Resume());

        on(new VoiceEvent.SpeechStarted(ms(5_000))); // a door: and the recognizer never answers
        assertThat(tick(5_000, 5_200)).containsExactly(new Hold());
        on(new VoiceEvent.SpeechStopped(ms(5_300)));
        assertThat(tick(5_220, 6_280)).as("a second to say something").isEmpty();
        assertThat(tick(6_300, 6_300)).containsExactly(new Resume());

        on(new VoiceEvent.SpeechStarted(ms(7_000))); // babble that goes on without words
        assertThat(tick(7_000, 7_200)).containsExactly(new Hold());
        assertThat(tick(7_220, 9_980)).isEmpty();
        assertThat(tick(10_000, 10_000)).as("held three seconds at most").containsExactly(new Resume());
        assertThat(commands).noneMatch(Interrupt.class::isInstance);
    }

    @Test
    void aTurnSaidOverTheAgentThatEndsBeforeItsWordsCameIsAnsweredWithItsFinal() {
        answering(turns);
        on(new VoiceEvent.SpeechStarted(ms(3_500)));
        tick(3_500, 3_700);
        assertThat(on(new VoiceEvent.SpeechStopped(ms(4_000)))).containsExactly(new FinalizeTranscript());
        assertThat(on(new VoiceEvent.Transcript(ms(4_100), "Wait, what colour?", true)))
                .containsExactly(new Interrupt(), new Respond("Wait, what colour?"));
        assertThat(state.phase()).isEqualTo(Phase.AGENT_THINKING);

        on(new VoiceEvent.AgentSpeaking(ms(5_000), true));
        on(new VoiceEvent.SpeechStarted(ms(5_500)));
        tick(5_500, 5_700);
        on(new VoiceEvent.SpeechStopped(ms(6_000)));
        assertThat(on(new VoiceEvent.Transcript(ms(6_050), "Book it for", false))).containsExactly(new Interrupt());
        assertThat(on(new VoiceEvent.Transcript(ms(6_100), "Book it for", true))).as("it sounds unfinished")
                .isEmpty();
        assertThat(state.phase()).isEqualTo(Phase.AWAITING_MORE);
    }

    @Test
    void underBabbleThatVoiceActivityNeverHearsEndTheWordsEndTheTurn() {
        greeted(false);
        on(new VoiceEvent.SpeechStarted(ms(2_500))); // the caller, then babble that never stops
        on(new VoiceEvent.Transcript(ms(2_900), "Where is", false));
        on(new VoiceEvent.Transcript(ms(3_400), "Where is my order?", true));
        assertThat(tick(3_420, 4_880)).as("words may still come").isEmpty();
        assertThat(tick(4_900, 4_900)).as("none for 1.5 s: the recognizer settles")
                .containsExactly(new FinalizeTranscript());
        assertThat(on(new VoiceEvent.Transcript(ms(5_000), "", true))).containsExactly(new Respond("Where is my order?"));

        on(new VoiceEvent.AgentSpeaking(ms(6_000), false));
        on(new VoiceEvent.AgentDone(ms(7_000), null));
        assertThat(state.phase()).isEqualTo(Phase.LISTENING);
        on(new VoiceEvent.Transcript(ms(7_600), "And when", false)); // voice activity still hears the babble: no start
        assertThat(state.phase()).as("words start a turn").isEqualTo(Phase.USER_SPEAKING);
        on(new VoiceEvent.Transcript(ms(8_000), "And when will it arrive?", true));
        assertThat(tick(8_020, 9_500)).containsExactly(new FinalizeTranscript());
        assertThat(on(new VoiceEvent.Transcript(ms(9_600), "", true)))
                .containsExactly(new Respond("And when will it arrive?"));
    }

    @Test
    void underBabbleThatVoiceActivityHearsStopAndStartAgainTheTurnStillEndsByItsWords() {
        greeted(false);
        on(new VoiceEvent.SpeechStarted(ms(2_500))); // babble, then the caller under it
        on(new VoiceEvent.Transcript(ms(2_900), "What is the", false));
        on(new VoiceEvent.Transcript(ms(3_400), "What is the return policy?", false));
        assertThat(on(new VoiceEvent.SpeechStopped(ms(3_900)))).as("a dip in the babble")
                .containsExactly(new FinalizeTranscript());
        on(new VoiceEvent.SpeechStarted(ms(4_000))); // the babble again, before the final
        assertThat(on(new VoiceEvent.Transcript(ms(4_050), "What is the return policy?", true)))
                .as("voice activity still hears sound: the turn waits for more").isEmpty();
        assertThat(tick(4_060, 5_540)).isEmpty();
        assertThat(tick(5_560, 5_560)).as("no words for 1.5 s: the words end the turn")
                .containsExactly(new FinalizeTranscript());
        on(new VoiceEvent.SpeechStarted(ms(5_600))); // the babble flickers on
        on(new VoiceEvent.SpeechStopped(ms(5_650)));
        on(new VoiceEvent.SpeechStarted(ms(5_680)));
        assertThat(on(new VoiceEvent.Transcript(ms(5_700), "", true))).as("it is answered all the same")
                .containsExactly(new Respond("What is the return policy?"));
    }

    @Test
    void wordsThatSoundedUnfinishedAndThenOnlyNoiseAreAnsweredByTheWordsRule() {
        greeted(false);
        on(new VoiceEvent.SpeechStarted(ms(2_500)));
        on(new VoiceEvent.Transcript(ms(2_900), "I would like to", false));
        on(new VoiceEvent.SpeechStopped(ms(3_300)));
        on(new VoiceEvent.Transcript(ms(3_400), "I would like to", true));
        assertThat(state.phase()).isEqualTo(Phase.AWAITING_MORE);
        on(new VoiceEvent.SpeechStarted(ms(3_800))); // babble, not the caller: no words follow
        assertThat(state.phase()).isEqualTo(Phase.USER_SPEAKING);
        assertThat(tick(3_820, 5_280)).isEmpty();
        assertThat(tick(5_300, 5_300)).as("their words so far count from when the sound began")
                .containsExactly(new FinalizeTranscript());
        assertThat(on(new VoiceEvent.Transcript(ms(5_400), "", true)))
                .containsExactly(new Respond("I would like to"));
    }

    @Test
    void aCallerWhoStopsAfterTheAgentTheyCouldNotCutIsAskedForAllTheSame() {
        greeted(false);
        on(new VoiceEvent.Dtmf(ms(2_500), "1"));
        on(new VoiceEvent.AgentSpeaking(ms(3_000), false));
        on(new VoiceEvent.SpeechStarted(ms(3_500))); // over an agent that cannot be cut
        on(new VoiceEvent.AgentDone(ms(4_000), null)); // no words yet
        assertThat(state.phase()).isEqualTo(Phase.LISTENING);
        assertThat(on(new VoiceEvent.SpeechStopped(ms(4_500)))).containsExactly(new FinalizeTranscript());
        assertThat(on(new VoiceEvent.Transcript(ms(4_600), "Hold on a second.", true)))
                .containsExactly(new Respond("Hold on a second."));
    }

    @Test
    void anEmptyFinalAfterTheCallersWordsAnswersThemAtOnce() {
        greeted(false);
        on(new VoiceEvent.SpeechStarted(ms(2_500)));
        on(new VoiceEvent.Transcript(ms(3_000), "Where is my order?", true));
        on(new VoiceEvent.SpeechStopped(ms(3_200)));
        assertThat(on(new VoiceEvent.Transcript(ms(3_300), "", true))).as("the recognizer holds nothing more")
                .containsExactly(new Respond("Where is my order?"));
    }

    @Test
    void withMinWordsOneWordInterruptsAnAnswerStillBeingPrepared() {
        TurnTaking words = new TurnTaking(TurnRules.DEFAULT, CallSettings.TurnStart.MIN_WORDS, 3);
        greeted(true);
        on(words, new VoiceEvent.SpeechStarted(ms(2_500)));
        on(words, new VoiceEvent.SpeechStopped(ms(3_000)));
        assertThat(on(words, new VoiceEvent.Transcript(ms(3_100), "I would like a", true))).isEmpty();
        assertThat(tick(words, 3_120, 4_100)).containsExactly(new Respond("I would like a"));
        on(words, new VoiceEvent.SpeechStarted(ms(4_150))); // the caller goes on: nothing was said yet
        assertThat(on(words, new VoiceEvent.Transcript(ms(4_450), "table", false))).containsExactly(new Interrupt());
        assertThat(state.phase()).isEqualTo(Phase.USER_SPEAKING);
    }

    @Test
    void whileTheAnswerIsPreparedSpeechHoldsItWordsInterruptItAndNoWordsLetItPlay() {
        greeted(true);
        on(new VoiceEvent.SpeechStarted(ms(2_500)));
        on(new VoiceEvent.SpeechStopped(ms(2_600)));
        on(new VoiceEvent.Transcript(ms(2_700), "Tell me more.", true));
        assertThat(state.phase()).isEqualTo(Phase.AGENT_THINKING);
        on(new VoiceEvent.SpeechStarted(ms(2_800)));
        assertThat(tick(2_800, 3_000)).as("it will not start playing").containsExactly(new Hold());
        assertThat(on(new VoiceEvent.Transcript(ms(3_100), "No wait, about", false)))
                .as("the caller goes on").containsExactly(new Interrupt());
        assertThat(state.phase()).isEqualTo(Phase.USER_SPEAKING);

        on(new VoiceEvent.SpeechStopped(ms(3_600)));
        assertThat(on(new VoiceEvent.Transcript(ms(3_700), "No wait, about returns.", true)))
                .containsExactly(new Respond("No wait, about returns."));
        on(new VoiceEvent.SpeechStarted(ms(3_800))); // babble, or a cough: no words
        assertThat(tick(3_800, 4_000)).containsExactly(new Hold());
        assertThat(on(new VoiceEvent.SpeechStopped(ms(4_100)))).containsExactly(new FinalizeTranscript());
        assertThat(on(new VoiceEvent.Transcript(ms(4_200), "", true))).as("no words: the answer plays")
                .containsExactly(new Resume());
    }

    @Test
    void withProvisionalVoiceActivityAnyWordsWithinThePauseInterruptAndNoneResume() {
        TurnTaking provisional = new TurnTaking(TurnRules.DEFAULT, CallSettings.TurnStart.PROVISIONAL_VAD, 1,
                Duration.ofMillis(400));
        answering(provisional);
        on(provisional, new VoiceEvent.SpeechStarted(ms(3_500)));
        assertThat(tick(provisional, 3_500, 3_700)).containsExactly(new Hold());
        on(provisional, new VoiceEvent.SpeechStopped(ms(3_800)));
        assertThat(tick(provisional, 3_720, 4_080)).isEmpty();
        assertThat(tick(provisional, 4_100, 4_100)).as("the pause counts from the hold")
                .containsExactly(new Resume());

        on(provisional, new VoiceEvent.SpeechStarted(ms(5_000)));
        assertThat(tick(provisional, 5_000, 5_200)).containsExactly(new Hold());
        assertThat(on(provisional, new VoiceEvent.Transcript(ms(5_300), "okay", false)))
                .as("the reference's rule: any words are a turn").containsExactly(new Interrupt());
    }

    @Test
    void aShortNoiseOverTheAgentDoesNotInterruptIt() {
        greeted(true);
        on(new VoiceEvent.SpeechStarted(ms(2_500)));
        on(new VoiceEvent.SpeechStopped(ms(2_600)));
        on(new VoiceEvent.Transcript(ms(2_700), "Go on.", true));
        on(new VoiceEvent.AgentSpeaking(ms(3_000), true));
        on(new VoiceEvent.SpeechStarted(ms(3_100)));
        on(new VoiceEvent.SpeechStopped(ms(3_200))); // 100 ms
        assertThat(tick(3_220, 5_000)).isEmpty();
        assertThat(state.phase()).isEqualTo(Phase.AGENT_SPEAKING);
    }

    @Test
    void whereTheNodeForbidsInterruptionTheCallerIsNotHeardOverTheAgent() {
        greeted(false);
        on(new VoiceEvent.SpeechStarted(ms(2_500)));
        on(new VoiceEvent.SpeechStopped(ms(2_600)));
        on(new VoiceEvent.Transcript(ms(2_700), "Go on.", true));
        on(new VoiceEvent.AgentSpeaking(ms(3_000), false));
        on(new VoiceEvent.SpeechStarted(ms(3_100)));
        assertThat(tick(3_120, 6_000)).isEmpty();
        on(new VoiceEvent.Transcript(ms(6_100), "Hello?", true));
        assertThat(state.phase()).isEqualTo(Phase.AGENT_SPEAKING);
        assertThat(commands).noneMatch(Interrupt.class::isInstance);
        // what they said over the agent is theirs once the agent's turn was heard: nothing is lost
        assertThat(on(new VoiceEvent.AgentDone(ms(7_000), null))).containsExactly(new FinalizeTranscript());
        assertThat(on(new VoiceEvent.Transcript(ms(7_100), "Are you there?", true)))
                .containsExactly(new Respond("Hello? Are you there?"));
    }

    @Test
    void aHesitationMidSentenceIsNotTheEndOfTheTurnAndANaturalEndIsAnsweredAtOnce() {
        greeted(false);
        on(new VoiceEvent.SpeechStarted(ms(2_500)));
        on(new VoiceEvent.SpeechStopped(ms(3_400)));
        assertThat(on(new VoiceEvent.Transcript(ms(3_550), "I would like to", true))).isEmpty();
        assertThat(state.phase()).isEqualTo(Phase.AWAITING_MORE);
        assertThat(tick(3_560, 4_100)).as("the caller pauses 700 ms").isEmpty();
        on(new VoiceEvent.SpeechStarted(ms(4_100))); // and goes on: one turn
        on(new VoiceEvent.SpeechStopped(ms(5_400)));
        assertThat(on(new VoiceEvent.Transcript(ms(5_550), "book an appointment for Tuesday.", true)))
                .containsExactly(new Respond("I would like to book an appointment for Tuesday."));

        on(new VoiceEvent.AgentSpeaking(ms(6_000), false));
        on(new VoiceEvent.AgentDone(ms(7_000), null));
        on(new VoiceEvent.SpeechStarted(ms(7_500)));
        on(new VoiceEvent.SpeechStopped(ms(8_000)));
        on(new VoiceEvent.Transcript(ms(8_150), "Book it for, um", true));
        assertThat(tick(8_160, 9_140)).isEmpty();
        assertThat(tick(9_160, 9_160)).as("nothing more came: what was said is the turn")
                .containsExactly(new Respond("Book it for, um"));
    }

    @Test
    void wordsSaidOverAnUninterruptibleAgentAreAnsweredAfterTheWaitWhenNoFinalFollows() {
        greeted(false);
        on(new VoiceEvent.Dtmf(ms(2_500), "1"));
        on(new VoiceEvent.AgentSpeaking(ms(3_000), false));
        on(new VoiceEvent.Transcript(ms(3_500), "Wait, wait.", true));
        on(new VoiceEvent.AgentDone(ms(4_000), null));
        assertThat(tick(4_020, 5_480)).isEmpty();
        assertThat(tick(5_500, 5_500)).containsExactly(new Respond("Wait, wait."));
    }

    @Test
    void withMinWordsABackchannelNeverInterruptsAndAnUtteranceOfThatManyWordsDoes() {
        TurnTaking words = new TurnTaking(TurnRules.DEFAULT, CallSettings.TurnStart.MIN_WORDS, 3);
        TurnTaking.State s = words.decide(TurnTaking.State.INITIAL, new VoiceEvent.Connected(ms(0))).state();
        s = words.decide(s, new VoiceEvent.AgentSpeaking(ms(300), true)).state();
        s = words.decide(s, new VoiceEvent.SpeechStarted(ms(1_000))).state();
        for (long t = 1_000; t <= 2_000; t += 20) { // voice activity alone, well past the barge-in time
            assertThat(words.decide(s, new VoiceEvent.Tick(ms(t))).commands()).isEmpty();
        }
        TurnTaking.Decision uhHuh = words.decide(s, new VoiceEvent.Transcript(ms(1_400), "Uh-huh.", true));
        assertThat(uhHuh.commands()).isEmpty();
        s = words.decide(uhHuh.state(), new VoiceEvent.SpeechStopped(ms(1_500))).state();
        assertThat(s.phase()).isEqualTo(Phase.AGENT_SPEAKING);
        s = words.decide(s, new VoiceEvent.SpeechStarted(ms(2_500))).state();
        assertThat(words.decide(s, new VoiceEvent.Transcript(ms(2_700), "Okay okay", false)).commands()).isEmpty();
        TurnTaking.Decision three = words.decide(s, new VoiceEvent.Transcript(ms(2_800), "No, that is", false));
        assertThat(three.commands()).containsExactly(new Interrupt());
        assertThat(three.state().phase()).isEqualTo(Phase.USER_SPEAKING);
        s = words.decide(three.state(), new VoiceEvent.SpeechStopped(ms(3_200))).state();
        assertThat(words.decide(s, new VoiceEvent.Transcript(ms(3_300), "No, that is wrong.", true)).commands())
                .containsExactly(new Respond("No, that is wrong."));
    }

    @Test
    void aSilentCallerIsPromptedThenTheCallEnds() {
        greeted(false);
        assertThat(tick(2_020, 11_980)).isEmpty();
        assertThat(tick(12_000, 12_000)).containsExactly(new PromptIdle(1));
        on(new VoiceEvent.AgentSpeaking(ms(12_500), false));
        on(new VoiceEvent.AgentDone(ms(14_000), null));
        assertThat(tick(14_020, 23_980)).isEmpty();
        assertThat(tick(24_000, 24_000)).containsExactly(new Hangup(TurnTaking.USER_IDLE));
        assertThat(state.phase()).isEqualTo(Phase.ENDED);
        assertThat(tick(24_020, 25_000)).as("nothing after the end").isEmpty();
    }

    @Test
    void anEndOfTheConversationHangsUpOnlyOnceTheLastWordsWereHeard() {
        greeted(false);
        on(new VoiceEvent.Dtmf(ms(2_500), "5"));
        assertThat(commands).contains(new Respond("The caller pressed 5"));
        on(new VoiceEvent.AgentSpeaking(ms(3_000), false));
        assertThat(tick(3_020, 5_000)).isEmpty();
        assertThat(on(new VoiceEvent.AgentDone(ms(5_200), "user_qualified")))
                .containsExactly(new Hangup("user_qualified"));
    }

    @Test
    void withoutABargeInWaitTheAgentIsHeldAsVoiceActivityStartsNotAtTheNextTick() {
        TurnTaking immediate = new TurnTaking(new TurnRules(Duration.ofMillis(1_500), Duration.ZERO,
                Duration.ofSeconds(10), 1, Duration.ofSeconds(300)));
        TurnTaking.State s = immediate.decide(TurnTaking.State.INITIAL, new VoiceEvent.Connected(ms(0))).state();
        s = immediate.decide(s, new VoiceEvent.AgentSpeaking(ms(100), true)).state();
        TurnTaking.Decision over = immediate.decide(s, new VoiceEvent.SpeechStarted(ms(1_013)));
        assertThat(over.commands()).containsExactly(new Hold());
        assertThat(over.state().phase()).isEqualTo(Phase.AGENT_HELD);
        assertThat(immediate.decide(over.state(), new VoiceEvent.SpeechStarted(ms(1_100))).commands()).isEmpty();
    }

    @Test
    void theCallEndsAtItsMaximumDurationWhateverItIsDoing() {
        TurnTaking shortCalls = new TurnTaking(new TurnRules(Duration.ofMillis(1_500), Duration.ofMillis(200),
                Duration.ofSeconds(10), 1, Duration.ofSeconds(60)));
        TurnTaking.State s = shortCalls.decide(TurnTaking.State.INITIAL, new VoiceEvent.Connected(ms(0))).state();
        s = shortCalls.decide(s, new VoiceEvent.AgentSpeaking(ms(100), false)).state();
        assertThat(shortCalls.decide(s, new VoiceEvent.Tick(ms(59_980))).commands()).isEmpty();
        assertThat(shortCalls.decide(s, new VoiceEvent.Tick(ms(60_000))).commands())
                .containsExactly(new Hangup(TurnTaking.CALL_DURATION));
        assertThat(TurnTaking.elapsed(s, ms(30_000))).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void aHangupEndsTheCallAndNothingFollows() {
        greeted(false);
        assertThat(on(new VoiceEvent.Hungup(ms(3_000)))).containsExactly(new Hangup(TurnTaking.USER_HANGUP));
        assertThat(on(new VoiceEvent.SpeechStarted(ms(3_100)))).isEmpty();
        assertThat(on(new VoiceEvent.Connected(ms(3_200)))).isEmpty();
    }
}
