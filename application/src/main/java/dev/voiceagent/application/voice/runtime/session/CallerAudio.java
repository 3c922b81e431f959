package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.application.voice.runtime.port.out.VoiceActivityDetector;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Loudness;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.voice.VoiceActivity;
import dev.voiceagent.domain.voice.VoiceEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * The caller's audio as the pipeline hears it (LiveKit's audio recognition): each frame goes to speech-to-text, to
 * the recording beside the agent's frame, and into the voice activity detector's windows, whose answers the domain's
 * {@link VoiceActivity} turns into the caller starting and stopping to speak. What it hears reaches the session as
 * {@link VoiceEvent}s on the call's loop. On the call's loop only.
 */
final class CallerAudio {

    private final CallLoop loop;
    private final Listening ears;
    private final boolean pcm;
    private final int sampleRate;
    private final CallRecording recording;
    private final Consumer<VoiceEvent> heard;
    private final Consumer<String> failed;
    private VoiceActivity activity;
    private SpeechToText.Stream stt;
    private VoiceActivityDetector.Stream vad;
    private int windowSamples;
    private short[] window;
    private int fill;
    private Instant speechStartedAt;
    private Instant speechStoppedAt;
    private boolean closed;

    /**
     * @param heard what is heard: the caller starting and stopping to speak (voice activity), their transcripts
     * @param failed the recognizer failed (the message starts with its stage)
     */
    CallerAudio(CallLoop loop, AudioFormat format, Listening ears, CallRecording recording,
            Consumer<VoiceEvent> heard, Consumer<String> failed) {
        this.loop = loop;
        this.ears = ears;
        this.pcm = format.encoding() == AudioFormat.Encoding.PCM16LE;
        this.sampleRate = format.sampleRate();
        this.recording = recording;
        this.heard = heard;
        this.failed = failed;
    }

    /** Opens the recognizer and the detector; a provider the runtime cannot speak to throws here. */
    void open() {
        stt = ears.recognizer().apply(new Recognition());
        try {
            vad = ears.detector().open(sampleRate);
        } catch (RuntimeException e) {
            stt.close();
            throw e;
        }
        int windowMillis = ears.detector().windowMillis();
        activity = new VoiceActivity(ears.activity(), Duration.ofMillis(windowMillis));
        windowSamples = sampleRate * windowMillis / 1000;
        window = new short[windowSamples];
    }

    /** A frame of the caller's audio. */
    void audio(byte[] frame) {
        stt.audio(frame);
        recording.caller(frame);
        short[] samples = pcm ? Pcm16.samples(frame) : G711.decode(frame);
        int i = 0;
        while (i < samples.length) {
            int n = Math.min(samples.length - i, windowSamples - fill);
            System.arraycopy(samples, i, window, fill, n);
            fill += n;
            i += n;
            if (fill == windowSamples) {
                short[] full = window;
                window = new short[windowSamples];
                fill = 0;
                double volume = Loudness.volume(full);
                Instant at = loop.now();
                vad.window(full, p -> loop.execute(() -> voiced(p, volume, at)));
            }
        }
    }

    private void voiced(double probability, double volume, Instant at) {
        if (closed) {
            return;
        }
        activity.window(probability, volume, at).ifPresent(event -> {
            if (event instanceof VoiceEvent.SpeechStarted) {
                speechStartedAt = at;
            } else if (event instanceof VoiceEvent.SpeechStopped) {
                speechStoppedAt = at;
            }
            heard.accept(event);
        });
    }

    /** The caller stopped speaking: the recognizer settles what it heard now. */
    void finalizeNow() {
        stt.finalizeNow();
    }

    /** When voice activity last heard the caller start speaking, or null. */
    Instant speechStartedAt() {
        return speechStartedAt;
    }

    /** When voice activity last heard the caller stop speaking, or null. */
    Instant speechStoppedAt() {
        return speechStoppedAt;
    }

    /** Seconds of the caller's audio recognized (usage). */
    double seconds() {
        return stt == null ? 0 : stt.seconds();
    }

    void close() {
        closed = true;
        if (stt != null) {
            stt.close();
        }
        if (vad != null) {
            vad.close();
        }
    }

    /** The recognizer's events, moved to the call's loop. */
    private final class Recognition implements SpeechToText.Listener {

        @Override
        public void transcript(String text, boolean isFinal) {
            loop.execute(() -> {
                if (!closed) {
                    heard.accept(new VoiceEvent.Transcript(loop.now(), text, isFinal));
                }
            });
        }

        @Override
        public void failed(String message) {
            loop.execute(() -> {
                if (!closed) {
                    failed.accept("speech-to-text: " + message);
                }
            });
        }
    }
}
