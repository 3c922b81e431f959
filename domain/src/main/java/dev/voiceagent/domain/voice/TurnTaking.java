package dev.voiceagent.domain.voice;

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

/**
 * Who speaks when on a call: a pure state machine on the session's clock. Events come in (voice activity,
 * transcripts, the agent's audio starting and its last mark returning, keys, ticks), the next state and the commands
 * for the session come out. No clock and no I/O of its own, so every rule is tested on a virtual clock.
 *
 * <ul>
 * <li>The agent opens the call; the caller is listened to once the agent's turn was heard to its end.</li>
 * <li>End of the caller's turn: voice activity stops, speech-to-text is asked to finalize, and the turn goes on with
 * the final transcript, or with what was heard when none comes within {@link TurnRules#transcriptWait()}; finals that
 * arrive while the caller still speaks are kept for the same turn. A final that sounds unfinished ({@link Hesitation})
 * waits {@link TurnRules#hesitation()} more for the caller to go on, so a pause mid-sentence is not a turn. Where voice
 * activity never hears the caller stop (babble, a television behind them), the words decide: once the recognizer gave
 * none for {@link TurnRules#transcriptWait()} after some, it is asked to finalize and the turn ends the same way; words
 * recognised while the caller may speak start a turn though voice activity heard no start.</li>
 * <li>Barge-in: speech over the agent for at least {@link TurnRules#bargeIn()}, where the node allows interruption,
 * stops it. While it prepares its answer (nothing plays yet) that interrupts it and starts the caller's turn. While its
 * audio plays, the audio is held ({@link Phase#AGENT_HELD}: silent at once, its place kept) until the caller's words
 * decide: words that are a turn interrupt it; a backchannel ("uh-huh", "okay": {@link Backchannel}), or no words at
 * all (a cough, a door), resume it where the caller stopped hearing it. The default turn start waits for the caller to
 * stop (the final transcript says what it was) within {@link #FALSE_INTERRUPTION_WINDOW} of the hold, and holds at
 * most {@link #MAX_HOLD} while sound goes on without words; the provisional_vad turn start is the reference's: any
 * words within its pause interrupt, none resume. With the min_words turn start, only a transcript of at least that
 * many words over the agent's speech interrupts it (voice activity alone does not, and a shorter one, a backchannel
 * like "uh-huh", is not a turn); while the answer is still being prepared, one word does. Where the node does not allow interruption, what the caller says over the agent is kept
 * and answered once the agent's turn was heard (nothing said is lost).</li>
 * <li>A key pressed while the caller may speak is a turn of its own ("the caller pressed 5").</li>
 * <li>Silence: the caller is prompted after {@link TurnRules#idle()}, up to {@link TurnRules#idlePrompts()} times,
 * then the call ends (user_idle_max_duration_exceeded); the call ends at {@link TurnRules#maxDuration()}
 * (call_duration_exceeded), and when the agent's turn reached an end, only after its last words were heard.</li>
 * </ul>
 */
public final class TurnTaking {

    public static final String USER_IDLE = "user_idle_max_duration_exceeded";
    public static final String CALL_DURATION = "call_duration_exceeded";
    public static final String USER_HANGUP = "user_hangup";

    /** Where the call is. */
    public enum Phase {
        /** Not connected yet. */
        WAITING,
        /** The agent's turn is being prepared (model, tools) and nothing plays yet. */
        AGENT_THINKING,
        /** The agent's audio is playing. */
        AGENT_SPEAKING,
        /**
         * The caller began speaking over the agent: its audio is held (silent at the carrier, its place kept) until
         * their words say whether this is a turn (it is cut) or not (it resumes). {@code overAgentSince} is when the
         * caller started, null once they stopped; {@code since} when the hold began (or the caller stopped).
         */
        AGENT_HELD,
        /** The caller may speak. */
        LISTENING,
        /** The caller is speaking. */
        USER_SPEAKING,
        /** The caller stopped; the final transcript is awaited. */
        AWAITING_TRANSCRIPT,
        /**
         * The final transcript sounds unfinished (it ends on "to", "and", "the", "um", a comma...): a little longer for
         * the caller to go on after a hesitation before the turn is answered.
         */
        AWAITING_MORE,
        /** The call is over. */
        ENDED
    }

    /**
     * The call's state. {@code heard} is the caller's settled text of the turn in progress; {@code since} when the
     * phase began (for the idle rule and the transcript wait); {@code overAgentSince} when the caller started
     * speaking over the agent (null otherwise).
     */
    public record State(Phase phase, Instant connectedAt, Instant since, String heard, boolean interruptible,
            Instant overAgentSince, int idlePrompts, Instant wordsAt) {

        public static final State INITIAL = new State(Phase.WAITING, null, null, "", false, null, 0);

        /** No words recognised yet in the caller's turn. */
        public State(Phase phase, Instant connectedAt, Instant since, String heard, boolean interruptible,
                Instant overAgentSince, int idlePrompts) {
            this(phase, connectedAt, since, heard, interruptible, overAgentSince, idlePrompts, null);
        }

        /** The recognizer gave words at {@code at}: the caller's turn is alive whatever voice activity says. */
        State words(Instant at) {
            return new State(phase, connectedAt, since, heard, interruptible, overAgentSince, idlePrompts, at);
        }

        State to(Phase next, Instant at) {
            return new State(next, connectedAt, at, heard, interruptible, null, idlePrompts);
        }

        State heard(String text) {
            return new State(phase, connectedAt, since, text, interruptible, overAgentSince, idlePrompts, wordsAt);
        }

        /**
         * The caller's words of a turn the agent never answered audibly (it was cut before any whole sentence was
         * heard), carried into the turn now in progress: they are answered with it, or alone when nothing more is
         * transcribed.
         */
        public State carrying(String words) {
            return words == null || words.isBlank() ? this : heard(join(words.strip(), heard));
        }
    }

    /** The next state and what to do. */
    public record Decision(State state, List<VoiceCommand> commands) {

        public Decision {
            commands = List.copyOf(commands);
        }
    }

    /**
     * How long a held agent waits, from the hold (or from the caller's stop, whichever is later), for words that make
     * the sound a turn, with the default turn start: the final transcript normally settles it sooner.
     */
    public static final Duration FALSE_INTERRUPTION_WINDOW = Duration.ofMillis(1_000);
    /** The longest the agent is held while sound without words goes on (babble, a television): then it resumes. */
    public static final Duration MAX_HOLD = Duration.ofSeconds(3);

    private final TurnRules rules;
    private final CallSettings.TurnStart start;
    private final int minWords;
    private final Duration provisionalPause;

    public TurnTaking(TurnRules rules) {
        this(rules, CallSettings.TurnStart.DEFAULT, 1);
    }

    /** With the workflow's turn start: {@code minWords} counts for {@link CallSettings.TurnStart#MIN_WORDS} only. */
    public TurnTaking(TurnRules rules, CallSettings.TurnStart start, int minWords) {
        this(rules, start, minWords, CallSettings.DEFAULTS.provisionalPause());
    }

    /**
     * With the workflow's turn start: {@code minWords} counts for {@link CallSettings.TurnStart#MIN_WORDS} only,
     * {@code provisionalPause} for {@link CallSettings.TurnStart#PROVISIONAL_VAD} only.
     */
    public TurnTaking(TurnRules rules, CallSettings.TurnStart start, int minWords, Duration provisionalPause) {
        this.rules = rules;
        this.start = start;
        this.minWords = minWords;
        this.provisionalPause = provisionalPause;
    }

    public Decision decide(State s, VoiceEvent event) {
        if (s.phase() == Phase.ENDED) {
            return new Decision(s, List.of());
        }
        Instant at = event.at();
        if (s.connectedAt() != null && !event.at().isBefore(s.connectedAt().plus(rules.maxDuration()))) {
            return end(s, at, CALL_DURATION);
        }
        return switch (event) {
            case VoiceEvent.Connected c -> s.phase() != Phase.WAITING ? same(s)
                    : new Decision(new State(Phase.AGENT_THINKING, at, at, "", false, null, 0), List.of(new Open()));
            case VoiceEvent.Hungup h -> end(s, at, USER_HANGUP);
            case VoiceEvent.AgentSpeaking a -> s.phase() == Phase.AGENT_THINKING || s.phase() == Phase.AGENT_SPEAKING
                    ? same(new State(Phase.AGENT_SPEAKING, s.connectedAt(), at, s.heard(), a.interruptible(),
                            s.overAgentSince(), s.idlePrompts()))
                    : same(s);
            case VoiceEvent.AgentDone d -> agentDone(s, d);
            case VoiceEvent.SpeechStarted started -> speechStarted(s, at);
            case VoiceEvent.SpeechStopped stopped -> speechStopped(s, at);
            case VoiceEvent.Transcript t -> transcript(s, t);
            case VoiceEvent.Dtmf d -> s.phase() == Phase.LISTENING || s.phase() == Phase.USER_SPEAKING
                    || s.phase() == Phase.AWAITING_TRANSCRIPT || s.phase() == Phase.AWAITING_MORE
                    ? respond(s, at, join(s.heard(), "The caller pressed " + d.digit()))
                    : same(s);
            case VoiceEvent.Tick tick -> tick(s, at);
        };
    }

    private Decision agentDone(State s, VoiceEvent.AgentDone d) {
        if (s.phase() == Phase.AGENT_HELD) { // its audio had all been heard when the caller began: now it is theirs
            return d.endCall() != null ? end(s, d.at(), d.endCall())
                    : s.overAgentSince() != null ? same(new State(Phase.USER_SPEAKING, s.connectedAt(),
                            s.overAgentSince(), "", s.interruptible(), null, 0))
                    : new Decision(new State(Phase.AWAITING_TRANSCRIPT, s.connectedAt(), d.at(), "",
                            s.interruptible(), null, 0), List.of(new FinalizeTranscript()));
        }
        if (s.phase() != Phase.AGENT_THINKING && s.phase() != Phase.AGENT_SPEAKING) {
            return same(s); // an interrupted turn ends without the caller waiting for it
        }
        if (d.endCall() != null) {
            return end(s, d.at(), d.endCall());
        }
        if (!s.heard().isBlank()) { // said over an agent who could not be interrupted: now it is the caller's turn
            return new Decision(new State(Phase.AWAITING_TRANSCRIPT, s.connectedAt(), d.at(), s.heard(),
                    s.interruptible(), null, 0), List.of(new FinalizeTranscript()));
        }
        return same(s.to(Phase.LISTENING, d.at()));
    }

    private Decision speechStarted(State s, Instant at) {
        return switch (s.phase()) {
            case LISTENING -> same(s.to(Phase.USER_SPEAKING, at));
            // the words ended the turn (none for a while, the final asked for): voice activity that starts again
            // without words is the babble behind the caller, not the caller; the final decides
            case AWAITING_TRANSCRIPT -> s.wordsAt() != null ? same(s) : goesOn(s, at);
            case AWAITING_MORE -> goesOn(s, at);
            case AGENT_SPEAKING, AGENT_THINKING, AGENT_HELD -> {
                if (!s.interruptible() || s.overAgentSince() != null) {
                    yield same(s);
                }
                State over = new State(s.phase(), s.connectedAt(), s.since(), s.heard(), s.interruptible(), at,
                        s.idlePrompts());
                // without a barge-in wait of its own the agent is held now, not at the next tick
                yield s.phase() == Phase.AGENT_HELD ? same(over) : tick(over, at);
            }
            default -> same(s);
        };
    }

    /**
     * The caller goes on after their turn seemed over: one turn. What they said so far counts as words from now, so
     * that if voice activity was only hearing noise and no words follow, the words rule still ends the turn.
     */
    private static Decision goesOn(State s, Instant at) {
        State on = new State(Phase.USER_SPEAKING, s.connectedAt(), at, s.heard(), s.interruptible(), null,
                s.idlePrompts());
        return same(s.heard().isBlank() ? on : on.words(at));
    }

    private Decision speechStopped(State s, Instant at) {
        return switch (s.phase()) {
            // LISTENING: they began over an agent who could not be cut, or before the words ended the turn, and stop
            // now: what they said since is asked for all the same
            case USER_SPEAKING, LISTENING -> new Decision(s.to(Phase.AWAITING_TRANSCRIPT, at),
                    List.of(new FinalizeTranscript()));
            case AWAITING_TRANSCRIPT -> new Decision(s.to(Phase.AWAITING_TRANSCRIPT, at).words(s.wordsAt()),
                    List.of(new FinalizeTranscript())); // whether the words ended the turn is kept
            case AGENT_SPEAKING, AGENT_THINKING -> same(new State(s.phase(), s.connectedAt(), s.since(), s.heard(),
                    s.interruptible(), null, s.idlePrompts())); // too short to be a barge-in
            case AGENT_HELD -> new Decision(new State(Phase.AGENT_HELD, s.connectedAt(),
                    start == CallSettings.TurnStart.PROVISIONAL_VAD ? s.since() : at, s.heard(),
                    s.interruptible(), null, s.idlePrompts()), List.of(new FinalizeTranscript())); // what was it?
            default -> same(s);
        };
    }

    private Decision transcript(State s, VoiceEvent.Transcript t) {
        if (s.phase() == Phase.AGENT_HELD) {
            return held(s, t);
        }
        if (t.isFinal() && !Backchannel.anyWords(t.text()) && s.phase() == Phase.AWAITING_TRANSCRIPT
                && !s.heard().isBlank()) { // the recognizer has nothing more: the turn is what was heard
            // (when its words ended it, they stopped long enough ago: no second wait for an unfinished one)
            return Hesitation.unfinished(s.heard()) && s.wordsAt() == null ? same(s.to(Phase.AWAITING_MORE, t.at()))
                    : respond(s, t.at(), s.heard());
        }
        if (t.text() == null || t.text().isBlank()) {
            return same(s);
        }
        boolean overAgent = s.phase() == Phase.AGENT_SPEAKING || s.phase() == Phase.AGENT_THINKING;
        if (overAgent && s.interruptible() && start == CallSettings.TurnStart.MIN_WORDS
                && words(t.text()) >= (s.phase() == Phase.AGENT_SPEAKING ? minWords : 1)) {
            // enough words to be a turn, not a backchannel; before the agent says anything, a word is (the caller
            // went on after a pause: the answer to what they said first is dropped, as pipecat's min_words does)
            return new Decision(new State(Phase.USER_SPEAKING, s.connectedAt(), t.at(),
                    t.isFinal() ? t.text().strip() : "", s.interruptible(), null, 0), List.of(new Interrupt()));
        }
        if (overAgent && !s.interruptible() && t.isFinal()) { // kept for when the agent's turn was heard
            return same(s.heard(join(s.heard(), t.text().strip())));
        }
        if (s.phase() == Phase.LISTENING && Backchannel.anyWords(t.text())) { // voice activity heard no start
            s = s.to(Phase.USER_SPEAKING, t.at());
        }
        boolean caller = s.phase() == Phase.USER_SPEAKING || s.phase() == Phase.AWAITING_TRANSCRIPT
                || s.phase() == Phase.AWAITING_MORE;
        if (s.phase() == Phase.USER_SPEAKING && Backchannel.anyWords(t.text())) {
            s = s.words(t.at());
        }
        if (!caller || !t.isFinal()) {
            return same(s);
        }
        State heard = s.heard(join(s.heard(), t.text().strip()));
        if (heard.phase() == Phase.USER_SPEAKING) {
            return same(heard);
        }
        return Hesitation.unfinished(heard.heard()) ? same(heard.to(Phase.AWAITING_MORE, t.at()))
                : respond(heard, t.at(), heard.heard());
    }

    /**
     * What the caller said while the agent is held: words that are a turn cut it (any words, with provisional_vad; with
     * the default turn start, any but a backchannel); a backchannel or nothing, once the caller stopped, resumes it.
     */
    private Decision held(State s, VoiceEvent.Transcript t) {
        boolean words = Backchannel.anyWords(t.text());
        boolean turn = words && (start == CallSettings.TurnStart.PROVISIONAL_VAD || !Backchannel.only(t.text()));
        if (turn) {
            if (s.overAgentSince() != null) { // still speaking: their turn goes on
                return new Decision(new State(Phase.USER_SPEAKING, s.connectedAt(), s.overAgentSince(),
                        t.isFinal() ? t.text().strip() : "", s.interruptible(), null, 0).words(t.at()),
                        List.of(new Interrupt()));
            }
            // they stopped (the recognizer was asked for its final then): an early word waits for it, the final is
            // the turn, answered at once unless it sounds unfinished
            State turnOf = new State(Phase.AWAITING_TRANSCRIPT, s.connectedAt(), t.at(),
                    t.isFinal() ? t.text().strip() : "", s.interruptible(), null, 0);
            if (!t.isFinal()) {
                return new Decision(turnOf, List.of(new Interrupt()));
            }
            if (Hesitation.unfinished(turnOf.heard())) {
                return new Decision(turnOf.to(Phase.AWAITING_MORE, t.at()), List.of(new Interrupt()));
            }
            Decision answer = respond(turnOf, t.at(), turnOf.heard());
            return new Decision(answer.state(), List.of(new Interrupt(), answer.commands().getFirst()));
        }
        if (t.isFinal() && s.overAgentSince() == null && start == CallSettings.TurnStart.DEFAULT) {
            return resume(s, t.at()); // "uh-huh", or nothing at all: the agent goes on
        }
        return same(s);
    }

    private Decision tick(State s, Instant at) {
        return switch (s.phase()) {
            // an answer playing, or still being prepared, is held: words cut it, none let it go on (under babble
            // voice activity starts while the answer is prepared, and the caller's question must still be answered)
            case AGENT_SPEAKING, AGENT_THINKING -> start != CallSettings.TurnStart.MIN_WORDS
                    && s.overAgentSince() != null && !at.isBefore(s.overAgentSince().plus(rules.bargeIn()))
                    ? new Decision(new State(Phase.AGENT_HELD, s.connectedAt(), at, "", s.interruptible(),
                            s.overAgentSince(), s.idlePrompts()), List.of(new Hold()))
                    : same(s);
            case AGENT_HELD -> heldTooLong(s, at) ? resume(s, at) : same(s);
            case USER_SPEAKING -> s.wordsAt() != null && !at.isBefore(s.wordsAt().plus(rules.transcriptWait()))
                    ? new Decision(s.to(Phase.AWAITING_TRANSCRIPT, at).words(s.wordsAt()),
                            List.of(new FinalizeTranscript()))
                    : same(s); // voice activity still hears sound, but the words stopped: the turn ends by them
            case AWAITING_TRANSCRIPT -> !at.isBefore(s.since().plus(rules.transcriptWait()))
                    ? (s.heard().isBlank() ? same(s.to(Phase.LISTENING, at)) : respond(s, at, s.heard()))
                    : same(s);
            case AWAITING_MORE -> !at.isBefore(s.since().plus(rules.hesitation()))
                    ? respond(s, at, s.heard()) : same(s);
            case LISTENING -> !at.isBefore(s.since().plus(rules.idle()))
                    ? (s.idlePrompts() < rules.idlePrompts()
                            ? new Decision(new State(Phase.AGENT_THINKING, s.connectedAt(), at, "", s.interruptible(),
                                    null, s.idlePrompts() + 1), List.of(new PromptIdle(s.idlePrompts() + 1)))
                            : end(s, at, USER_IDLE))
                    : same(s);
            default -> same(s);
        };
    }

    /** Whether the held agent's wait for words is over (see the class's barge-in rule). */
    private boolean heldTooLong(State s, Instant at) {
        if (start == CallSettings.TurnStart.PROVISIONAL_VAD) {
            return !at.isBefore(s.since().plus(provisionalPause));
        }
        return s.overAgentSince() == null ? !at.isBefore(s.since().plus(FALSE_INTERRUPTION_WINDOW))
                : !at.isBefore(s.overAgentSince().plus(MAX_HOLD));
    }

    private static Decision resume(State s, Instant at) {
        return new Decision(new State(Phase.AGENT_SPEAKING, s.connectedAt(), at, s.heard(), s.interruptible(), null,
                s.idlePrompts()), List.of(new Resume()));
    }

    private static Decision respond(State s, Instant at, String text) {
        return new Decision(new State(Phase.AGENT_THINKING, s.connectedAt(), at, "", s.interruptible(), null, 0),
                List.of(new Respond(text)));
    }

    private static Decision end(State s, Instant at, String reason) {
        List<VoiceCommand> commands = new ArrayList<>();
        commands.add(new Hangup(reason));
        return new Decision(new State(Phase.ENDED, s.connectedAt(), at, s.heard(), s.interruptible(), null,
                s.idlePrompts()), commands);
    }

    private static Decision same(State s) {
        return new Decision(s, List.of());
    }

    private static int words(String text) {
        String t = text.strip();
        return t.isEmpty() ? 0 : t.split("\\s+").length;
    }

    private static String join(String before, String more) {
        return before.isBlank() ? more : more.isBlank() ? before : before + " " + more;
    }

    /** How long the call has lasted at {@code at} (zero before it connected). */
    public static Duration elapsed(State s, Instant at) {
        return s.connectedAt() == null ? Duration.ZERO : Duration.between(s.connectedAt(), at);
    }
}
