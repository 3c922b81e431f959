package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.application.voice.runtime.port.out.VoiceActivityDetector;
import dev.voiceagent.application.voice.runtime.port.out.VoiceMetrics;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Loudness;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.voice.EchoGate;
import dev.voiceagent.domain.voice.VoiceActivity;
import dev.voiceagent.domain.voice.VoiceEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The caller's audio as the pipeline hears it (LiveKit's audio recognition): each frame goes to speech-to-text, to
 * the recording beside the agent's frame, and into the voice activity detector's windows, whose answers the domain's
 * {@link VoiceActivity} turns into the caller starting and stopping to speak. What it hears reaches the session as
 * {@link VoiceEvent}s on the call's loop. A recognizer that fails for good (its adapter's reconnects spent) is replaced
 * by the next one the configuration names, and the audio it had not settled yet (since its last final transcript, up
 * to {@link #UNSETTLED_LIMIT}) is sent to the new one, so a line said across the switch is still understood; when the
 * caller had finished it and the final transcript was still awaited, the new one is asked to finalize it too. On the
 * call's loop only.
 */
final class CallerAudio {

    /** How much of the caller's audio not yet settled by a final transcript is kept for a recognizer taking over. */
    static final Duration UNSETTLED_LIMIT = Duration.ofSeconds(10);

    private final CallLoop loop;
    private final Listening ears;
    private final EchoGate echo;
    private final Providers<Listening.Recognizer, Double> recognizers;
    private final Deque<byte[]> unsettled = new ArrayDeque<>();
    private final int unsettledLimit;
    private int unsettledBytes;
    /** The recognizer was asked to finalize what the caller said and no final transcript came yet. */
    private boolean finalizing;
    /** Seconds recognized by the recognizers the call left behind. */
    private double secondsBefore;
    /** Which recognizer {@link #stt} is. */
    private int sttAt;
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
    CallerAudio(CallLoop loop, AudioFormat format, Listening ears, CallRecording recording, EchoGate echo,
            CallLog log, VoiceMetrics metrics, Consumer<VoiceEvent> heard, Consumer<String> failed) {
        this.loop = loop;
        this.echo = echo;
        this.ears = ears;
        this.recognizers = new Providers<>("stt", ears.recognizers(), Listening.Recognizer::key, log, metrics,
                Double::sum);
        this.unsettledLimit = format.bytes((int) UNSETTLED_LIMIT.toMillis());
        this.pcm = format.encoding() == AudioFormat.Encoding.PCM16LE;
        this.sampleRate = format.sampleRate();
        this.recording = recording;
        this.heard = heard;
        this.failed = failed;
    }

    /** Opens the recognizer and the detector; a provider the runtime cannot speak to throws here. */
    void open() {
        stt = recognizers.current().open().apply(new Recognition(recognizers.at()));
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
        keep(frame);
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
                double dbfs = Loudness.dbfs(full);
                Instant at = loop.now();
                // the agent's echo on the line is not the caller: below the gate's floor a window is not speech
                double volume = dbfs < echo.floorDbfs(at) ? 0 : Loudness.volume(dbfs);
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
        finalizing = true;
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

    /** Seconds of the caller's audio recognized (usage), by every recognizer the call used. */
    double seconds() {
        return secondsBefore + (stt == null ? 0 : stt.seconds());
    }

    /** Seconds the fallback recognizers recognized, by usage key. */
    Map<String, Double> fallbackSeconds() {
        return recognizers.served(stt == null || sttAt != recognizers.at() ? null : stt.seconds());
    }

    /** The frame kept until a final transcript settles it (the oldest dropped beyond the limit). */
    private void keep(byte[] frame) {
        if (!recognizers.hasNext()) {
            return; // no recognizer could take over: nothing to keep
        }
        unsettled.addLast(frame);
        unsettledBytes += frame.length;
        while (unsettledBytes > unsettledLimit) {
            unsettledBytes -= unsettled.removeFirst().length;
        }
    }

    /**
     * The recognizer failed for good: the next one takes over with the audio not yet settled, or, when none is left,
     * the call fails. A next one that cannot be opened counts as failed too.
     */
    private void recognizerFailed(String message) {
        String why = message;
        SpeechToText.Stream old = stt;
        Double used = old.seconds();
        old.close();
        while (recognizers.next(why, used)) {
            used = null; // one that cannot be opened recognized nothing
            try {
                stt = recognizers.current().open().apply(new Recognition(recognizers.at()));
            } catch (RuntimeException e) {
                why = e.getMessage();
                continue;
            }
            sttAt = recognizers.at();
            secondsBefore += old.seconds();
            unsettled.forEach(stt::audio);
            if (finalizing) { // the caller had finished the line: the final the old one owed comes from the new one
                stt.finalizeNow();
            }
            return;
        }
        failed.accept("speech-to-text: " + message);
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

        /** Which of the call's recognizers this one is: a recognizer the call left behind is not heard. */
        private final int which;

        Recognition(int which) {
            this.which = which;
        }

        private boolean current() {
            return !closed && which == recognizers.at();
        }

        @Override
        public void transcript(String text, boolean isFinal) {
            loop.execute(() -> {
                if (current()) {
                    if (isFinal) {
                        unsettled.clear();
                        unsettledBytes = 0;
                        finalizing = false;
                    }
                    heard.accept(new VoiceEvent.Transcript(loop.now(), text, isFinal));
                }
            });
        }

        @Override
        public void failed(String message) {
            loop.execute(() -> {
                if (current()) {
                    recognizerFailed(message);
                }
            });
        }
    }
}
