package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.application.voice.runtime.port.out.VoiceActivityDetector;
import dev.voiceagent.domain.voice.VoiceActivity;
import java.util.function.Function;

/**
 * How a pipeline call hears the caller: the recognizer (the session opens it with its listener), the voice activity
 * detector and the rule that turns its windows into speech starting and stopping.
 */
public record Listening(Function<SpeechToText.Listener, SpeechToText.Stream> recognizer,
        VoiceActivityDetector detector, VoiceActivity.Params activity) {
}
