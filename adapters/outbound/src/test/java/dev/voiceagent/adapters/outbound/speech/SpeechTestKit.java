package dev.voiceagent.adapters.outbound.speech;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.voice.HeardText;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.ToLongFunction;

/**
 * What the speech provider tests share: a speech-to-text listener that records what it heard ({@link Heard}), a
 * text-to-speech one that records each chunk as a mark ({@link Spoken}; {@link SpeechHeard} keeps the audio
 * itself), the poll with a deadline they wait with ({@link #await}), and the caller's words as frames
 * ({@link #say}, {@link #sayPcm}).
 */
final class SpeechTestKit {

    /** The words a fake recognizer hears: a frame's first byte is the index of its word. */
    static final String[] WORDS = {"hello", "where", "is", "my", "order"};
    /** A frame that carries no word. */
    static final int SILENCE = 5;

    private SpeechTestKit() {
    }

    /** The caller says {@code word} for {@code frames} 20 ms frames of μ-law 8 kHz. */
    static void say(SpeechToText.Stream stream, int word, int frames) throws InterruptedException {
        for (int i = 0; i < frames; i++) {
            byte[] frame = new byte[160];
            frame[0] = (byte) word;
            stream.audio(frame);
            Thread.sleep(word == SILENCE ? 1 : 5);
        }
    }

    /** The caller says {@code word} for {@code frames} 20 ms frames of 16-bit PCM 16 kHz (a browser). */
    static void sayPcm(SpeechToText.Stream stream, int word, int frames) throws InterruptedException {
        for (int i = 0; i < frames; i++) {
            byte[] frame = new byte[640];
            frame[0] = (byte) word;
            stream.audio(frame);
            Thread.sleep(5);
        }
    }

    /** What a speech-to-text listener heard: "interim:", "final:" and "failed:" events in order. */
    static final class Heard implements SpeechToText.Listener {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void transcript(String text, boolean isFinal) {
            events.add((isFinal ? "final:" : "interim:") + text);
        }

        @Override
        public void failed(String message) {
            events.add("failed:" + message);
        }

        List<String> finals() {
            return events.stream().filter(e -> !e.startsWith("interim:")).toList();
        }

        /** Waits (at most 5 s) for an event starting with {@code prefix}. */
        void await(String prefix) throws InterruptedException {
            SpeechTestKit.await(() -> events.stream().anyMatch(e -> e.startsWith(prefix)), prefix);
        }
    }

    /**
     * What a text-to-speech listener heard, in order: "u1:audio" and a mark of the chunk (its first byte, or its first
     * sample's level in thousands), "u1:restart", "u1:done", "failed:..."; each chunk's size; the words timed.
     */
    static final class Spoken implements TextToSpeech.Listener {
        final List<String> events = new CopyOnWriteArrayList<>();
        final List<Integer> sizes = new CopyOnWriteArrayList<>();
        final List<HeardText.Word> words = new CopyOnWriteArrayList<>();
        private final ToLongFunction<byte[]> mark;

        /** Each chunk marked by its first byte. */
        Spoken() {
            this(audio -> audio[0]);
        }

        /** Each chunk marked by its first sample's level in thousands, the chunk in {@code format}. */
        Spoken(AudioFormat format) {
            this(audio -> Math.round((format.encoding() == AudioFormat.Encoding.MULAW ? G711.decode(audio[0])
                    : Pcm16.samples(audio)[0]) / 1000.0));
        }

        private Spoken(ToLongFunction<byte[]> mark) {
            this.mark = mark;
        }

        @Override
        public void audio(String utterance, byte[] audio) {
            events.add(utterance + ":audio" + mark.applyAsLong(audio));
            sizes.add(audio.length);
        }

        @Override
        public void done(String utterance) {
            events.add(utterance + ":done");
        }

        @Override
        public void restart(String utterance) {
            events.add(utterance + ":restart");
        }

        @Override
        public void words(String utterance, List<HeardText.Word> said) {
            words.addAll(said);
        }

        @Override
        public void failed(String message) {
            events.add("failed:" + message);
        }

        /** The events of one utterance, in order. */
        List<String> of(String utterance) {
            return events.stream().filter(e -> e.startsWith(utterance + ":")).toList();
        }

        /** Waits (at most 5 s) for an event starting with {@code event}. */
        void await(String event) throws InterruptedException {
            SpeechTestKit.await(() -> events.stream().anyMatch(e -> e.startsWith(event)), event);
        }
    }

    /** Polls {@code condition} every 20 ms for at most 5 s; then it must hold. */
    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        for (int i = 0; i < 250 && !condition.getAsBoolean(); i++) {
            Thread.sleep(20);
        }
        assertThat(condition.getAsBoolean()).as(what).isTrue();
    }
}
