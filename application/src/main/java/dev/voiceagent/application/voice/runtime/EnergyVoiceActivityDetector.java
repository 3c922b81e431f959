package dev.voiceagent.application.voice.runtime;

import dev.voiceagent.application.voice.runtime.port.out.VoiceActivityDetector;
import dev.voiceagent.domain.audio.Loudness;
import java.util.function.DoubleConsumer;

/**
 * The fallback detector: speech probability from the window's energy ({@link Loudness#speechConfidence}), answered at
 * once. Good enough for clean lines and for tests; noisy lines need the Silero detector.
 */
public final class EnergyVoiceActivityDetector implements VoiceActivityDetector {

    @Override
    public Stream open(int sampleRate) {
        return new Stream() {
            @Override
            public void window(short[] samples, DoubleConsumer answer) {
                answer.accept(Loudness.speechConfidence(samples));
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public int windowMillis() {
        return 20;
    }
}
