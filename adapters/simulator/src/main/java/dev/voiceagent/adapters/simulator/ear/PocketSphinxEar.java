package dev.voiceagent.adapters.simulator.ear;

import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.audio.Resampler;
import dev.voiceagent.domain.audio.Wav;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * LOCAL, LOW-ACCURACY EAR, for the keyless local run: CMU PocketSphinx (Debian's {@code pocketsphinx} with its
 * {@code pocketsphinx-en-us} model, run as {@code pocketsphinx_continuous}, a program of its own) hears a person where
 * no speech provider is configured. It is no streaming recognizer: the caller's audio since the last final is kept (as
 * 16 kHz PCM, what the model was trained on) and, when the caller stops (Finalize), decoded whole off the call's loop;
 * the words, lower case and unpunctuated, come back as the final (an empty one when it heard none), about a second
 * later. No interim results. Where the program is not installed it is {@linkplain #available() not available} and the
 * simulator says so.
 */
public final class PocketSphinxEar {

    /** Debian's program and model, as {@code apt-get install pocketsphinx pocketsphinx-en-us} puts them. */
    static final Path PROGRAM = Path.of("/usr/bin/pocketsphinx_continuous");
    static final Path MODEL = Path.of("/usr/share/pocketsphinx/model/en-us");
    /** The rate the en-us model hears. */
    static final int RATE = 16_000;
    /** The longest line kept for one decoding (older audio is dropped). */
    static final int MAX_SECONDS = 30;
    /** How long one decoding may take. */
    static final long TIMEOUT_SECONDS = 20;

    private PocketSphinxEar() {
    }

    /** Whether the program and its English model are installed here. */
    public static boolean available() {
        return Files.isExecutable(PROGRAM) && Files.isDirectory(MODEL.resolve("en-us"));
    }

    /**
     * A call's ear for a browser's audio: 16-bit PCM (16 kHz as the dashboard sends it; another rate is resampled). A
     * phone's 8 kHz μ-law is refused: the model is wideband, and heard the telephone band poorly when tried.
     */
    public static SpeechToText.Stream open(AudioFormat format, SpeechToText.Listener listener) {
        if (format.encoding() != AudioFormat.Encoding.PCM16LE) {
            throw new IllegalArgumentException("the local ear hears a browser's 16-bit PCM, not " + format);
        }
        return new Ear(format, listener);
    }

    /** Decodes 16 kHz 16-bit mono PCM: the words heard, lower case, or "" (blocking: off any event loop). */
    static String decode(byte[] pcm16k) throws IOException, InterruptedException {
        Path wav = Files.createTempFile("voiceagent-ear-", ".wav");
        try {
            byte[] header = Wav.header(1, RATE, pcm16k.length);
            byte[] file = new byte[header.length + pcm16k.length];
            System.arraycopy(header, 0, file, 0, header.length);
            System.arraycopy(pcm16k, 0, file, header.length, pcm16k.length);
            Files.write(wav, file);
            Process process = new ProcessBuilder(List.of(PROGRAM.toString(), "-infile", wav.toString(),
                    "-hmm", MODEL.resolve("en-us").toString(), "-lm", MODEL.resolve("en-us.lm.bin").toString(),
                    "-dict", MODEL.resolve("cmudict-en-us.dict").toString(), "-logfn", "/dev/null"))
                    .redirectErrorStream(false).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("pocketsphinx took longer than " + TIMEOUT_SECONDS + " s");
            }
            if (process.exitValue() != 0) {
                throw new IOException("pocketsphinx exited with " + process.exitValue());
            }
            // one line per utterance it found in the audio
            return String.join(" ", new String(out, StandardCharsets.UTF_8).strip().split("\\s*\\n\\s*"))
                    .toLowerCase(Locale.ROOT).strip();
        } finally {
            Files.deleteIfExists(wav);
        }
    }

    /** One call's ear; audio and Finalize come on the call's loop, the final from a decoder thread. */
    private static final class Ear implements SpeechToText.Stream {
        private final AudioFormat format;
        private final SpeechToText.Listener listener;
        private final Resampler resampler;
        private final ByteArrayOutputStream heard = new ByteArrayOutputStream();
        /** One decoding at a time, so finals come in the order the caller spoke. */
        private final ExecutorService decoder = Executors.newSingleThreadExecutor(Thread.ofVirtual().factory());
        private long bytes;
        private volatile boolean closed;

        Ear(AudioFormat format, SpeechToText.Listener listener) {
            this.format = format;
            this.listener = listener;
            this.resampler = format.sampleRate() == RATE ? null : new Resampler(format.sampleRate(), RATE);
        }

        @Override
        public void audio(byte[] frame) {
            if (closed) {
                return;
            }
            bytes += frame.length;
            short[] samples = Pcm16.samples(frame);
            byte[] pcm = Pcm16.bytes(resampler == null ? samples : resampler.process(samples));
            heard.writeBytes(pcm);
            int limit = MAX_SECONDS * RATE * 2;
            if (heard.size() > limit) { // keep the latest seconds
                byte[] all = heard.toByteArray();
                heard.reset();
                heard.write(all, all.length - limit, limit);
            }
        }

        @Override
        public void finalizeNow() {
            if (closed) {
                return;
            }
            byte[] line = heard.toByteArray();
            heard.reset();
            decoder.execute(() -> {
                try {
                    String words = line.length == 0 ? "" : decode(line);
                    if (!closed) {
                        listener.transcript(words, true);
                    }
                } catch (IOException e) {
                    if (!closed) {
                        listener.failed("The local ear (pocketsphinx) failed: " + e.getMessage());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }

        @Override
        public double seconds() {
            return format.millis(bytes) / 1000.0;
        }

        @Override
        public void close() {
            closed = true;
            decoder.shutdown();
        }
    }
}
