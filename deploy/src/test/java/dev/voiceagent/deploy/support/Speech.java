package dev.voiceagent.deploy.support;

import dev.voiceagent.adapters.simulator.FreeTts;
import dev.voiceagent.domain.audio.AudioFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Real speech for the simulated callers: FreeTTS's kevin16 voice through the simulator's own synthesizer
 * ({@link FreeTts}: a pure-Java synthesizer, the voice inside its jar, resampled to 8 kHz and μ-law encoded as a phone
 * line carries it). Each line is synthesized once.
 */
public final class Speech {

    private static final FreeTts FREE_TTS = new FreeTts();
    /** Encoded once per line: the benchmark's callers say the same lines many times. */
    private static final Map<String, byte[]> SAID = new ConcurrentHashMap<>();

    private Speech() {
    }

    /** The line as μ-law 8 kHz, its length a whole number of 20 ms frames. */
    public static byte[] mulaw(String text) {
        return SAID.computeIfAbsent(text, Speech::synthesize);
    }

    /** The line as a browser sends it: 16-bit PCM at 16 kHz, its length a whole number of 20 ms frames. */
    public static byte[] pcm16k(String text) {
        return SAID.computeIfAbsent("pcm16k:" + text, k -> {
            try {
                return FREE_TTS.audio(FreeTts.Speaker.AGENT, text, AudioFormat.PCM_16K).get(60, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("FreeTTS could not say: " + text, e);
            }
        });
    }

    private static byte[] synthesize(String text) {
        try {
            return FREE_TTS.audio(FreeTts.Speaker.AGENT, text, AudioFormat.MULAW_8K).get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("FreeTTS could not say: " + text, e);
        }
    }
}
