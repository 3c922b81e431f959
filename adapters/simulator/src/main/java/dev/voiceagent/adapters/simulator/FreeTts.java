package dev.voiceagent.adapters.simulator;

import com.sun.speech.freetts.Voice;
import com.sun.speech.freetts.audio.AudioPlayer;
import com.sun.speech.freetts.en.us.cmu_us_kal.KevinVoiceDirectory;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.audio.Resampler;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * SIMULATOR: real speech from FreeTTS (net.sf.sociaal:freetts, a pure-Java diphone synthesizer whose voices are inside
 * its jar): the agent speaks with kevin16 (16 kHz), the simulated callee with kevin (8 kHz), so the two sides of a
 * recording sound apart. Synthesis runs on one worker thread of its own (a FreeTTS voice is not thread-safe; a
 * sentence takes a few tens of milliseconds), never on an event loop; the last lines said are kept.
 */
@Singleton
public class FreeTts {

    /** Who speaks: the agent (the simulator text-to-speech) or the simulated callee. */
    public enum Speaker {
        AGENT("kevin16"), CALLEE("kevin");

        private final String voice;

        Speaker(String voice) {
            this.voice = voice;
        }
    }

    /** Speech as 16-bit samples at the voice's rate. */
    public record Pcm(short[] samples, int sampleRate) {
    }

    private static final int KEPT = 256;

    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "freetts");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<Speaker, Voice> voices = new EnumMap<>(Speaker.class); // the worker's only
    private final Map<String, Pcm> said = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Pcm> eldest) {
            return size() > KEPT;
        }
    };

    /** {@code text} spoken by {@code speaker}, synthesized on the worker (or remembered). */
    public CompletableFuture<Pcm> speech(Speaker speaker, String text) {
        String key = speaker + ":" + text;
        synchronized (said) {
            Pcm known = said.get(key);
            if (known != null) {
                return CompletableFuture.completedFuture(known);
            }
        }
        return CompletableFuture.supplyAsync(() -> {
            Pcm pcm = synthesize(speaker, text);
            synchronized (said) {
                said.put(key, pcm);
            }
            return pcm;
        }, worker);
    }

    /** {@code text} spoken by {@code speaker} in {@code format}, padded to whole 20 ms frames. */
    public CompletableFuture<byte[]> audio(Speaker speaker, String text, AudioFormat format) {
        return speech(speaker, text).thenApply(pcm -> encode(pcm, format));
    }

    static byte[] encode(Pcm pcm, AudioFormat format) {
        short[] samples = pcm.sampleRate() == format.sampleRate() ? pcm.samples()
                : new Resampler(pcm.sampleRate(), format.sampleRate()).process(pcm.samples());
        int frame = format.sampleRate() / 50;
        short[] whole = Arrays.copyOf(samples, Math.max(1, (samples.length + frame - 1) / frame) * frame);
        return format.encoding() == AudioFormat.Encoding.MULAW ? G711.encode(whole) : Pcm16.bytes(whole);
    }

    /**
     * One synthesis at a time in the whole process, not only per instance: FreeTTS keeps state in statics of its own
     * classes (its lexicon and unit databases), so two instances (a test's caller and the simulator's voice) must not
     * speak at once; the lock is FreeTTS's own class, shared by whoever shares those statics.
     */
    private Pcm synthesize(Speaker speaker, String text) {
        Collector collector = new Collector();
        synchronized (Voice.class) {
            Voice voice = voices.computeIfAbsent(speaker, FreeTts::load);
            voice.setAudioPlayer(collector);
            if (!voice.speak(text)) {
                throw new IllegalStateException("FreeTTS could not say: " + text);
            }
        }
        javax.sound.sampled.AudioFormat format = collector.getAudioFormat();
        byte[] bytes = collector.bytes.toByteArray();
        short[] samples = format != null && format.isBigEndian() ? bigEndian(bytes) : Pcm16.samples(bytes);
        return new Pcm(samples, format == null ? 16_000 : (int) format.getSampleRate());
    }

    private static Voice load(Speaker speaker) {
        // the voice directory directly (not VoiceManager's class-name lookup from a system property)
        for (Voice voice : new KevinVoiceDirectory().getVoices()) {
            if (voice.getName().equals(speaker.voice)) {
                voice.allocate();
                return voice;
            }
        }
        throw new IllegalStateException("FreeTTS has no voice " + speaker.voice);
    }

    private static short[] bigEndian(byte[] bytes) {
        short[] out = new short[bytes.length / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (short) ((bytes[2 * i] << 8) | (bytes[2 * i + 1] & 0xFF));
        }
        return out;
    }

    @PreDestroy
    void close() {
        worker.shutdownNow();
    }

    /** FreeTTS's audio output, kept in memory. */
    private static final class Collector implements AudioPlayer {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private javax.sound.sampled.AudioFormat format;

        @Override
        public void setAudioFormat(javax.sound.sampled.AudioFormat format) {
            this.format = format;
        }

        @Override
        public javax.sound.sampled.AudioFormat getAudioFormat() {
            return format;
        }

        @Override
        public boolean write(byte[] audio) {
            bytes.writeBytes(audio);
            return true;
        }

        @Override
        public boolean write(byte[] audio, int offset, int length) {
            bytes.write(audio, offset, length);
            return true;
        }

        @Override
        public void pause() {
        }

        @Override
        public void resume() {
        }

        @Override
        public void reset() {
        }

        @Override
        public boolean drain() {
            return true;
        }

        @Override
        public void begin(int size) {
        }

        @Override
        public boolean end() {
            return true;
        }

        @Override
        public void cancel() {
        }

        @Override
        public void close() {
        }

        @Override
        public float getVolume() {
            return 1f;
        }

        @Override
        public void setVolume(float volume) {
        }

        @Override
        public long getTime() {
            return 0;
        }

        @Override
        public void resetTime() {
        }

        @Override
        public void startFirstSampleTimer() {
        }

        @Override
        public void showMetrics() {
        }
    }
}
