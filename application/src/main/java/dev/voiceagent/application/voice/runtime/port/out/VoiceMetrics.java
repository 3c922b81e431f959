package dev.voiceagent.application.voice.runtime.port.out;

import java.time.Duration;

/** Out-port: the voice runtime's figures (scraped as metrics): how fast calls answer and stop, what fails. */
public interface VoiceMetrics {

    VoiceMetrics NONE = new VoiceMetrics() {
        @Override
        public void answered(Duration afterCallerStopped) {
        }

        @Override
        public void interrupted(Duration afterCallerStarted) {
        }

        @Override
        public void providerFailed(String stage) {
        }

        @Override
        public void providerSwitched(String stage) {
        }
    };

    /** An answer's first audio went out, this long after voice activity heard the caller stop. */
    void answered(Duration afterCallerStopped);

    /** A barge-in's clear went out (the agent held or cut), this long after voice activity heard the caller start. */
    void interrupted(Duration afterCallerStarted);

    /**
     * What stopped the agent was no turn (a backchannel, a cough, words that never came) and it resumed: a false
     * interruption caught.
     */
    default void resumed() {
    }

    /** The stages of an answer, each measured on every answer (their names are a closed set: bounded labels). */
    enum Stage {
        /** From voice activity hearing the caller stop to the recognizer's final transcript of the turn. */
        STT_FINAL,
        /** From voice activity hearing the caller stop to the turn decided over and the model asked. */
        END_OF_TURN,
        /** From the model asked to its first words. */
        LLM_FIRST_TOKEN,
        /** From the model's first words to the voice's first audio. */
        TTS_FIRST_BYTE
    }

    /** One stage of an answer took this long. */
    default void stage(Stage stage, Duration took) {
    }

    /** A provider failed mid-call: stage is stt, tts or llm. */
    void providerFailed(String stage);

    /** A provider kept failing and the call went on with the stage's next one (its fallback): stage as above. */
    void providerSwitched(String stage);
}
