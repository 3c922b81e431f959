package dev.voiceagent.domain.voice;

import java.time.Instant;

/** What happens on a call, as the session reports it to {@link TurnTaking}; {@code at} is the session's clock. */
public sealed interface VoiceEvent {

    Instant at();

    /** The caller's media connected: the call begins. */
    record Connected(Instant at) implements VoiceEvent {
    }

    /** Voice activity detection heard the caller start speaking. */
    record SpeechStarted(Instant at) implements VoiceEvent {
    }

    /** Voice activity detection heard the caller stop speaking (after its own stop delay). */
    record SpeechStopped(Instant at) implements VoiceEvent {
    }

    /** A transcript of the caller; a final one is settled text, an interim one may still change. */
    record Transcript(Instant at, String text, boolean isFinal) implements VoiceEvent {
    }

    /** A key the caller pressed. */
    record Dtmf(Instant at, String digit) implements VoiceEvent {
    }

    /**
     * The agent's answer started playing (its first audio went to the carrier); {@code interruptible} is the current
     * node's allow_interrupt.
     */
    record AgentSpeaking(Instant at, boolean interruptible) implements VoiceEvent {
    }

    /**
     * The agent's turn is over: every audio it sent was played (its last mark came back), or it had nothing to say.
     * {@code endCall} when the turn reached an end of the conversation (an end-call node, the end_call tool), with its
     * reason.
     */
    record AgentDone(Instant at, String endCall) implements VoiceEvent {
    }

    /** The caller hung up, or the carrier closed the media. */
    record Hungup(Instant at) implements VoiceEvent {
    }

    /** Time passes (the session ticks every few tens of milliseconds). */
    record Tick(Instant at) implements VoiceEvent {
    }
}
