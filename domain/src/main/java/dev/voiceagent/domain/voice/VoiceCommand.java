package dev.voiceagent.domain.voice;

/** What the session must do next, as {@link TurnTaking} decides it. */
public sealed interface VoiceCommand {

    /** Run the agent's opening turn (greeting or first words). */
    record Open() implements VoiceCommand {
    }

    /** Ask speech-to-text for its final transcript now (the caller stopped speaking). */
    record FinalizeTranscript() implements VoiceCommand {
    }

    /** Run the agent's turn on what the caller said. */
    record Respond(String userText) implements VoiceCommand {
    }

    /**
     * The caller spoke over the agent: stop its audio at the carrier (clear), cancel the model's and the voice's
     * streams, and keep in the conversation only what the caller heard.
     */
    record Interrupt() implements VoiceCommand {
    }

    /**
     * The caller began speaking over the agent: its audio stops at the carrier at once (clear), its place is kept and
     * the model and the voice go on, until the caller's words say whether this is a turn ({@link Interrupt}) or not
     * ({@link Resume}).
     */
    record Hold() implements VoiceCommand {
    }

    /**
     * What stopped the agent was not a turn (a backchannel, a cough, words that never came): its audio goes on from
     * where the caller stopped hearing it, nothing lost.
     */
    record Resume() implements VoiceCommand {
    }

    /** Prompt a silent caller (the {@code attempt}-th time). */
    record PromptIdle(int attempt) implements VoiceCommand {
    }

    /** End the call with this reason (a disposition the run keeps). */
    record Hangup(String reason) implements VoiceCommand {
    }
}
