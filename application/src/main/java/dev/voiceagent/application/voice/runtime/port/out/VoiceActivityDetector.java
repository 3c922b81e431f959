package dev.voiceagent.application.voice.runtime.port.out;

import dev.voiceagent.domain.voice.VoiceActivity;
import java.util.function.DoubleConsumer;

/**
 * Out-port: how likely a window of the caller's audio is speech (Silero on ONNX Runtime; an energy detector where
 * no model is installed). The answer may come later and on another thread (inference is batched across calls);
 * the session moves it to the call's loop. The rule that turns windows into speech starting and stopping is the
 * domain's {@link VoiceActivity}.
 */
public interface VoiceActivityDetector {

    /** One call's detector; its windows are {@link #windowMillis()} of 16-bit samples at {@code sampleRate}. */
    interface Stream {

        /** Asks for the speech probability of a window; {@code answer} gets it (0..1). */
        void window(short[] samples, DoubleConsumer answer);

        void close();
    }

    Stream open(int sampleRate);

    /** The window length the detector wants. */
    int windowMillis();
}
