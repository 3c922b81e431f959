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

    /** Prompt a silent caller (the {@code attempt}-th time). */
    record PromptIdle(int attempt) implements VoiceCommand {
    }

    /** End the call with this reason (a disposition the run keeps). */
    record Hangup(String reason) implements VoiceCommand {
    }
}
