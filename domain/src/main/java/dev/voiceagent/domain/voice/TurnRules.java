package dev.voiceagent.domain.voice;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Duration;

/**
 * The timings of a call's turn-taking, from the workflow's configuration with the reference's defaults.
 *
 * @param transcriptWait how long after the caller stops speaking (voice activity) the final transcript is awaited
 *        before the turn goes on with what was heard (the reference's user_turn_stop_timeout is 5 s; less is snappier)
 * @param bargeIn how long the caller must speak over the agent before the agent stops (an echo or a cough is shorter)
 * @param idle silence after the agent's turn before the caller is prompted (max_user_idle_timeout, 10 s)
 * @param idlePrompts prompts before the call ends as idle
 * @param maxDuration the longest call (max_call_duration, 300 s, at most 1200 s)
 * @param hesitation how much longer a final transcript that sounds unfinished waits for the caller to go on
 */
public record TurnRules(Duration transcriptWait, Duration bargeIn, Duration idle, int idlePrompts,
        Duration maxDuration, Duration hesitation) {

    /**
     * A pause mid-sentence is 600-900 ms of silence between words, and up to about 1.1 s between their voiced frames;
     * counted from the final transcript (itself some 400 ms after the last voiced frame: voice activity's 256 ms of
     * silence and the recognizer's answer), 1 s leaves voice activity time to hear the caller go on (the turn-taking
     * benchmark: at 0.7 s the model was asked the fragment in 6-7 trials of 10).
     */
    public static final Duration HESITATION = Duration.ofMillis(1_000);

    public static final TurnRules DEFAULT = new TurnRules(Duration.ofMillis(1_500), Duration.ofMillis(200),
            Duration.ofSeconds(10), 1, Duration.ofSeconds(300));

    /** With the default hesitation wait. */
    public TurnRules(Duration transcriptWait, Duration bargeIn, Duration idle, int idlePrompts, Duration maxDuration) {
        this(transcriptWait, bargeIn, idle, idlePrompts, maxDuration, HESITATION);
    }

    public TurnRules {
        if (transcriptWait.isNegative() || bargeIn.isNegative() || !idle.isPositive() || idlePrompts < 0
                || !maxDuration.isPositive() || hesitation.isNegative()) {
            throw new DomainRuleViolation("turn timings must be positive");
        }
        if (maxDuration.compareTo(Duration.ofSeconds(1_200)) > 0) {
            throw new DomainRuleViolation("max_call_duration is at most 1200 seconds");
        }
    }
}
