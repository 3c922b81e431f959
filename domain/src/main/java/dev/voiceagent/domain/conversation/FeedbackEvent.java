package dev.voiceagent.domain.conversation;

import java.time.Duration;

/**
 * What a conversation shows as it happens and keeps in its run's log: the reference's real-time feedback, which its
 * dashboard shows live and its run page reads from logs.realtime_feedback_events. Every kind is decided here, as the
 * webhook events are: {@code grep FeedbackEvent} lists every kind and every place that raises one, and
 * {@link FeedbackEvents} is the one mapping to the reference's rtf-* types and payloads (a renamed field is one
 * change there, checked by its test).
 */
public sealed interface FeedbackEvent {

    /** Whether the run's log keeps the event; the others are only shown live (interim words, who is speaking). */
    default boolean kept() {
        return true;
    }

    /** The caller's words: settled ({@code isFinal}, kept) or interim (shown only, they may still change). */
    record UserTranscription(String text, boolean isFinal) implements FeedbackEvent {

        @Override
        public boolean kept() {
            return isFinal;
        }
    }

    /** A key the caller pressed. */
    record UserDtmf(String digit) implements FeedbackEvent {
    }

    /** Where what the agent said came from. */
    enum Said {
        /** The model's or the engine's words, spoken by the voice (an idle prompt, a resumed call's line too). */
        SPOKEN,
        /** A pre-recorded prompt played from its recording (its transcript). */
        RECORDING,
        /** The message left on a voicemail. */
        VOICEMAIL
    }

    /** What the agent said. */
    record BotText(String text, Said said) implements FeedbackEvent {

        public BotText(String text) {
            this(text, Said.SPOKEN);
        }
    }

    /** The agent's first audio of an answer went to the caller. Shown only. */
    record BotStartedSpeaking() implements FeedbackEvent {

        @Override
        public boolean kept() {
            return false;
        }
    }

    /** The agent's answer was played out, or cut short by the caller ({@code interrupted}). Shown only. */
    record BotStoppedSpeaking(boolean interrupted) implements FeedbackEvent {

        @Override
        public boolean kept() {
            return false;
        }
    }

    /** The caller cannot cut in while this answer plays ({@code muted}), or can again. Shown only. */
    record UserMute(boolean muted) implements FeedbackEvent {

        @Override
        public boolean kept() {
            return false;
        }
    }

    /**
     * An answer's voice-to-voice latency: from the caller's end of speech to the agent's first audio, and where the
     * pipeline's time went (the model's first words, the voice's first audio after them; null when unknown). A
     * speech-to-speech model has no stages of its own.
     */
    record LatencyMeasured(Duration userStopToBotStarted, Duration modelFirstText, Duration voiceFirstAudio,
            boolean speechToSpeech) implements FeedbackEvent {

        public static LatencyMeasured pipeline(Duration total, Duration modelFirstText, Duration voiceFirstAudio) {
            return new LatencyMeasured(total, modelFirstText, voiceFirstAudio, false);
        }

        public static LatencyMeasured speechToSpeech(Duration total) {
            return new LatencyMeasured(total, null, null, true);
        }
    }

    /** What a stage of the pipeline is: the language model or the voice. */
    enum Stage {
        LLM, TTS
    }

    /** A stage's time to its first output on an answer (the dashboard's time to first byte), and its model. */
    record TimeToFirstByte(Duration took, Stage stage, String model) implements FeedbackEvent {
    }

    /**
     * The caller spoke over the agent: what the caller heard of the answer (all the conversation keeps), how much of
     * its audio played, and how long the barge-in took from the caller's first sound (null when unknown).
     */
    record Interruption(String heardText, long heardMs, Long bargeInMs, boolean speechToSpeech)
            implements FeedbackEvent {
    }

    /** The carrier's answering-machine detection said who answered (human, machine_start, fax, ...). */
    record CarrierAmd(String answeredBy) implements FeedbackEvent {
    }

    /** The callee is a voicemail: who decided it, and what the workflow does about it (hang_up, leave_message). */
    record VoicemailDetected(String detectedBy, String action) implements FeedbackEvent {
    }

    /** The call left this replica for another (it drained, or the carrier's stream broke). */
    record CallMoved(String reason) implements FeedbackEvent {
    }

    /** The call goes on here after it moved: the line said to the caller, and how many times it has moved. */
    record CallResumed(String text, int moves) implements FeedbackEvent {
    }

    /**
     * A stage's provider kept failing and the call goes on with the next one its configuration names, for the rest of
     * the call: the stage (stt, llm or tts), the providers as usage names them (provider/model), and why.
     */
    record ProviderSwitched(String stage, String from, String to, String reason) implements FeedbackEvent {
    }

    /** A provider or a step failed; {@code fatal}: the call could not go on. */
    record PipelineError(String message, boolean fatal) implements FeedbackEvent {

        public static PipelineError warning(String message) {
            return new PipelineError(message, false);
        }

        public static PipelineError fatal(String message) {
            return new PipelineError(message, true);
        }
    }

    /** Something the agent's engine did in a turn: a transition, a function call and its result, extraction, the end. */
    record Engine(TurnEvent event) implements FeedbackEvent {
    }

    /** The call ended for this reason (when the conversation's own end did not already say so). */
    record CallEnded(String reason) implements FeedbackEvent {
    }

    /** The log was full: this many events were left out. */
    record EventsDropped(int count) implements FeedbackEvent {
    }
}
