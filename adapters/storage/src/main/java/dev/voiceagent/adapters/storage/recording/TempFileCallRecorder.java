package dev.voiceagent.adapters.storage.recording;

import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.application.voice.runtime.port.out.CallRecorder;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.Wav;
import dev.voiceagent.domain.storage.ObjectKeys;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Call recordings written as the call goes: the caller's and the agent's μ-law frames interleaved into a 32 KiB
 * buffer, appended to a temporary file off the event loop when it fills (so a call holds 32 KiB however long it
 * lasts), and at the end turned into a 16-bit PCM stereo WAV (caller left, agent right) stored at
 * recordings/{org}/runs/{run}.wav; the temporary file is deleted.
 */
@Singleton
public class TempFileCallRecorder implements CallRecorder {

    static final int BUFFER = 32 * 1024;

    private final ObjectStore objects;
    private final ExecutorService io = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("recording-", 0)
            .factory());

    public TempFileCallRecorder(ObjectStore objects) {
        this.objects = objects;
    }

    @PreDestroy
    void close() {
        io.shutdown();
    }

    @Override
    public Recording open(long organizationId, long runId, AudioFormat format) {
        if (!format.equals(AudioFormat.MULAW_8K) && format.encoding() != AudioFormat.Encoding.PCM16LE) {
            throw new IllegalArgumentException("calls are recorded in μ-law 8 kHz or 16-bit PCM, not " + format);
        }
        return new FileRecording(ObjectKeys.callRecording(organizationId, runId), format);
    }

    private final class FileRecording implements Recording {
        private final String key;
        /** A browser's call (16-bit PCM) is kept as it is; a phone's μ-law is decoded when the file is written. */
        private final AudioFormat format;
        private final boolean pcm;
        private byte[] buffer = new byte[BUFFER];
        private int fill;
        private Path file;
        private CompletableFuture<Void> written = CompletableFuture.completedFuture(null);

        FileRecording(String key, AudioFormat format) {
            this.key = key;
            this.format = format;
            this.pcm = format.encoding() == AudioFormat.Encoding.PCM16LE;
        }

        @Override
        public void frame(byte[] caller, byte[] agent) {
            int n = caller.length;
            if (fill + 2 * n > buffer.length) {
                flush();
            }
            if (pcm) { // interleaved 16-bit samples: the caller left, the agent right
                for (int i = 0; i + 1 < n; i += 2) {
                    buffer[fill++] = caller[i];
                    buffer[fill++] = caller[i + 1];
                    buffer[fill++] = i + 1 < agent.length ? agent[i] : 0;
                    buffer[fill++] = i + 1 < agent.length ? agent[i + 1] : 0;
                }
                return;
            }
            for (int i = 0; i < n; i++) {
                buffer[fill++] = caller[i];
                buffer[fill++] = i < agent.length ? agent[i] : (byte) 0xFF;
            }
        }

        private void flush() {
            if (fill == 0) {
                return;
            }
            byte[] chunk = Arrays.copyOf(buffer, fill);
            fill = 0;
            written = written.thenRunAsync(() -> append(chunk), io);
        }

        private void append(byte[] chunk) {
            try {
                if (file == null) {
                    file = Files.createTempFile("call-recording-", pcm ? ".pcm" : ".ulaw");
                }
                Files.write(file, chunk, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public Uni<String> finish() {
            flush();
            buffer = null;
            CompletableFuture<byte[]> wav = written.thenApplyAsync(v -> {
                try {
                    return wav();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } finally {
                    delete();
                }
            }, io);
            return Uni.createFrom().completionStage(wav)
                    .chain(bytes -> objects.put(key, bytes, "audio/wav")).replaceWith(key);
        }

        /**
         * The WAV file in one array, read and decoded into it piece by piece (not the file's bytes, then the samples,
         * then the file: three copies of a call's audio at once, a megabyte and a half for twenty seconds).
         */
        private byte[] wav() throws IOException {
            long stored = file == null ? 0 : Files.size(file);
            long samples = pcm ? stored : 2 * stored;
            byte[] header = Wav.header(2, format.sampleRate(), samples);
            byte[] out = new byte[Math.toIntExact(Wav.HEADER_BYTES + samples)];
            System.arraycopy(header, 0, out, 0, Wav.HEADER_BYTES);
            if (file == null) {
                return out;
            }
            try (InputStream in = Files.newInputStream(file)) {
                if (pcm) {
                    in.readNBytes(out, Wav.HEADER_BYTES, (int) stored);
                    return out;
                }
                byte[] piece = new byte[BUFFER];
                int at = Wav.HEADER_BYTES;
                for (int n = in.read(piece); n > 0; n = in.read(piece)) {
                    Wav.decodeMulaw(piece, 0, n, out, at);
                    at += 2 * n;
                }
            }
            return out;
        }

        private void delete() {
            try {
                if (file != null) {
                    Files.deleteIfExists(file);
                }
            } catch (IOException ignored) {
                // the temporary directory is cleaned by the system
            }
        }
    }
}
