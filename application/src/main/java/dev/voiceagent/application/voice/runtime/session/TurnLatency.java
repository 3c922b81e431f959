package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.port.out.VoiceMetrics;
import dev.voiceagent.domain.conversation.FeedbackEvent;
import java.time.Duration;
import java.time.Instant;

/**
 * An answer's latency, measured where it is spent: when the model was last asked, its first words, the voice's first
 * audio; reported when the answer's first audio goes to the caller, that long after the caller stopped speaking (the
 * voice-to-voice latency, the figure a caller feels), with each stage's time to first byte, and to the call's trace.
 * On the call's loop only.
 */
final class TurnLatency {

    private Instant askedAt;
    private Instant firstTextAt;
    private Instant firstAudioAt;

    /** The model was asked (again, after a tool: the stages count from the last request). */
    void asked(Instant at) {
        askedAt = at;
    }

    Instant askedAt() {
        return askedAt;
    }

    void firstText(Instant at) {
        if (firstTextAt == null) {
            firstTextAt = at;
        }
    }

    void firstAudio(Instant at) {
        if (firstAudioAt == null) {
            firstAudioAt = at;
        }
    }

    /**
     * The pipeline's answer started playing at {@code now}, {@code callerStopped} being when voice activity heard the
     * caller stop and {@code finalTranscriptAt} when the turn's last final transcript came (null: none): the
     * voice-to-voice latency with its stages, and each stage's time to first byte, to the run and to the metrics.
     */
    void report(Instant callerStopped, Instant finalTranscriptAt, Instant now, String model, CallLog log,
            VoiceMetrics metrics) {
        Duration total = Duration.between(callerStopped, now);
        metrics.answered(total);
        log.trace().answered(callerStopped, finalTranscriptAt, askedAt, firstTextAt, firstAudioAt, now, model);
        Instant textOrAsked = firstTextAt == null ? askedAt : firstTextAt;
        if (finalTranscriptAt != null && !finalTranscriptAt.isBefore(callerStopped)) {
            metrics.stage(VoiceMetrics.Stage.STT_FINAL, Duration.between(callerStopped, finalTranscriptAt));
        }
        if (askedAt != null && !askedAt.isBefore(callerStopped)) {
            metrics.stage(VoiceMetrics.Stage.END_OF_TURN, Duration.between(callerStopped, askedAt));
        }
        if (askedAt != null && firstTextAt != null) {
            metrics.stage(VoiceMetrics.Stage.LLM_FIRST_TOKEN, Duration.between(askedAt, firstTextAt));
        }
        if (firstAudioAt != null && textOrAsked != null) {
            metrics.stage(VoiceMetrics.Stage.TTS_FIRST_BYTE, Duration.between(textOrAsked, firstAudioAt));
        }
        log.add(FeedbackEvent.LatencyMeasured.pipeline(total,
                firstTextAt == null || askedAt == null ? null : Duration.between(askedAt, firstTextAt),
                firstAudioAt == null || askedAt == null ? null : Duration.between(textOrAsked, firstAudioAt)));
        if (askedAt != null && firstTextAt != null) {
            log.add(new FeedbackEvent.TimeToFirstByte(Duration.between(askedAt, firstTextAt), FeedbackEvent.Stage.LLM,
                    model));
        }
        if (firstAudioAt != null && textOrAsked != null) {
            log.add(new FeedbackEvent.TimeToFirstByte(Duration.between(textOrAsked, firstAudioAt),
                    FeedbackEvent.Stage.TTS, null));
        }
    }

    /** A speech-to-speech model's answer started playing: one figure, the model's stages being its own. */
    static void reportSpeechToSpeech(Instant callerStopped, Instant now, CallLog log, VoiceMetrics metrics) {
        Duration total = Duration.between(callerStopped, now);
        metrics.answered(total);
        log.trace().answered(callerStopped, null, null, null, null, now, null);
        log.add(FeedbackEvent.LatencyMeasured.speechToSpeech(total));
    }
}
