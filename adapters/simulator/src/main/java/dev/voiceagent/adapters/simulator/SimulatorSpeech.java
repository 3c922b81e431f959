package dev.voiceagent.adapters.simulator;

import dev.voiceagent.adapters.simulator.ear.PocketSphinxEar;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.UnsupportedSpeechProvider;
import dev.voiceagent.domain.audio.AudioFormat;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * SIMULATOR speech for laptops, demos and tests, behind the same ports as the real providers (model provider
 * "simulator"). Its text-to-speech is FreeTTS's kevin16 voice. Its speech-to-text is an oracle: it recognizes the
 * simulated callee's own audio ({@link SpokenLines}) and, when the caller stops speaking (Finalize), reports each line
 * whose audio ended; speech it does not know is "(inaudible)". That is phone audio (μ-law 8 kHz); a browser's call is a
 * person, heard by the local low-accuracy ear ({@link PocketSphinxEar}) where it is installed.
 */
@Singleton
@Typed(SimulatorSpeech.class)
public class SimulatorSpeech implements SpeechToText, TextToSpeech {

    public static final String PROVIDER = "simulator";
    static final String INAUDIBLE = "(inaudible)";
    /** Unknown voiced audio shorter than this (ms) is noise, not words. */
    static final int INAUDIBLE_AFTER_MS = 200;
    /** Audio is handed to the listener in pieces of this many ms, as a streaming provider sends it. */
    static final int PIECE_MS = 100;

    private final FreeTts freeTts;
    private final SpokenLines lines;

    public SimulatorSpeech(FreeTts freeTts, SpokenLines lines) {
        this.freeTts = freeTts;
        this.lines = lines;
    }

    @Override
    public SpeechToText.Stream open(ModelEndpoint endpoint, AudioFormat format, SpeechToText.Listener listener) {
        if (AudioFormat.MULAW_8K.equals(format)) {
            return new Oracle(listener);
        }
        if (PocketSphinxEar.available()) { // a person in a browser: the local ear
            return PocketSphinxEar.open(format, listener);
        }
        throw new UnsupportedSpeechProvider("The simulator speech-to-text hears the simulated callee's phone audio only;"
                + " to talk to the local run from a browser install its local ear (apt-get install pocketsphinx"
                + " pocketsphinx-en-us) or configure a speech-to-text provider");
    }

    @Override
    public TextToSpeech.Stream open(ModelEndpoint endpoint, AudioFormat format, TextToSpeech.Listener listener) {
        return new Voice(format, listener);
    }

    /** One call's recognition; called on the call's loop. */
    private final class Oracle implements SpeechToText.Stream {
        private final SpeechToText.Listener listener;
        private final byte[] carry = new byte[SpokenLines.FRAME];
        private int carried;
        private long bytes;
        private final List<String> ended = new ArrayList<>();
        private String interim;
        private int unknownVoiced;
        private boolean closed;

        Oracle(SpeechToText.Listener listener) {
            this.listener = listener;
        }

        @Override
        public void audio(byte[] audio) {
            if (closed) {
                return;
            }
            bytes += audio.length;
            int at = 0;
            while (at < audio.length) { // the callee's frames are whole 20 ms frames from the stream's start
                int n = Math.min(audio.length - at, SpokenLines.FRAME - carried);
                System.arraycopy(audio, at, carry, carried, n);
                carried += n;
                at += n;
                if (carried == SpokenLines.FRAME) {
                    carried = 0;
                    hear(carry);
                }
            }
        }

        private void hear(byte[] frame) {
            SpokenLines.Heard heard = lines.line(frame, 0);
            if (heard != null) {
                if (!heard.line().equals(interim)) { // a line begins (or goes on after a pause)
                    interim = heard.line();
                    listener.transcript(heard.line(), false);
                }
                if (heard.last()) { // the line's audio ended: it is settled at the next Finalize
                    ended.add(heard.line());
                    interim = null;
                }
            } else if (SpokenLines.voiced(frame, 0)) {
                unknownVoiced++;
            }
        }

        /**
         * The lines whose audio ended since the last Finalize; a line still being said (the caller paused mid-line)
         * is not settled yet: an empty final, as Deepgram's for a Finalize over nothing new. Unknown speech is
         * "(inaudible)".
         */
        @Override
        public void finalizeNow() {
            if (closed) {
                return;
            }
            String heard = !ended.isEmpty() ? String.join(" ", ended)
                    : interim == null && unknownVoiced * 20 >= INAUDIBLE_AFTER_MS ? INAUDIBLE : "";
            ended.clear();
            unknownVoiced = 0;
            listener.transcript(heard, true);
        }

        @Override
        public double seconds() {
            return bytes / 8_000.0;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /** One call's voice: each utterance synthesized in turn on FreeTTS's worker. */
    private final class Voice implements TextToSpeech.Stream {
        private final AudioFormat format;
        private final TextToSpeech.Listener listener;
        private final Set<String> cancelled = ConcurrentHashMap.newKeySet();
        private final AtomicLong characters = new AtomicLong();
        private volatile boolean closed;

        Voice(AudioFormat format, TextToSpeech.Listener listener) {
            this.format = format;
            this.listener = listener;
        }

        @Override
        public void speak(String utterance, String text) {
            characters.addAndGet(text.length());
            freeTts.audio(FreeTts.Speaker.AGENT, text, format).whenComplete((audio, failure) -> {
                if (closed || cancelled.remove(utterance)) {
                    return;
                }
                if (failure != null) {
                    listener.failed("the simulator's FreeTTS voice: " + failure.getMessage());
                    return;
                }
                int piece = format.bytes(PIECE_MS);
                for (int at = 0; at < audio.length; at += piece) {
                    listener.audio(utterance, Arrays.copyOfRange(audio, at, Math.min(audio.length,
                            at + piece)));
                }
                listener.done(utterance);
            });
        }

        @Override
        public void cancel(String utterance) {
            cancelled.add(utterance);
        }

        @Override
        public long characters() {
            return characters.get();
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
