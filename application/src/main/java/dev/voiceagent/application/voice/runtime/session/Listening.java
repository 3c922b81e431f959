package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.application.voice.runtime.port.out.VoiceActivityDetector;
import dev.voiceagent.domain.voice.VoiceActivity;
import java.util.List;
import java.util.function.Function;

/**
 * How a pipeline call hears the caller: its recognizers (the configured one, then its fallbacks, each opened by the
 * session with its listener when the one before has failed for good), the voice activity detector and the rule that
 * turns its windows into speech starting and stopping.
 */
public record Listening(List<Recognizer> recognizers, VoiceActivityDetector detector, VoiceActivity.Params activity) {

    /** One speech-to-text provider, named as usage names it (provider/model). */
    public record Recognizer(String key, Function<SpeechToText.Listener, SpeechToText.Stream> open) {
    }

    public Listening {
        if (recognizers.isEmpty()) {
            throw new IllegalArgumentException("a call needs a recognizer");
        }
        recognizers = List.copyOf(recognizers);
    }

    /** One recognizer, no fallback. */
    public Listening(Function<SpeechToText.Listener, SpeechToText.Stream> recognizer, VoiceActivityDetector detector,
            VoiceActivity.Params activity) {
        this(List.of(new Recognizer("stt", recognizer)), detector, activity);
    }
}
