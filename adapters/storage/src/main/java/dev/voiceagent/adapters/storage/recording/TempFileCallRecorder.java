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
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Call recordings written as the call goes: the caller's and the agent's frames interleaved into a 32 KiB buffer,
 * appended to a temporary WAV file off the event loop when it fills (μ-law decoded into 16-bit PCM as it is written),
 * so a call holds 32 KiB however long it lasts. At the end the file's header gets its length and the file goes to the
 * object store as it is, recordings/{org}/runs/{run}.wav (16-bit PCM stereo, caller left, agent right), never
 * through memory whole: an hour's browser call is 230 MB.
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

    /**
     * A replica's warm-up: {@code seconds} of a call's audio in each format (a phone's μ-law, a browser's PCM) through
     * the same buffer, io threads, temporary file and closing header as a call's, then the file deleted. Nothing is
     * stored. A call's first flush would otherwise be the replica's first: its virtual threads, temporary files and
     * μ-law decoding start cold in the middle of its first callers' answers.
     *
     * @return the bytes written to the temporary files
     */
    public long rehearse(int seconds) {
        long bytes = 0;
        for (AudioFormat format : List.of(AudioFormat.MULAW_8K, AudioFormat.PCM_16K)) {
            FileRecording recording = new FileRecording("rehearsal", format);
            byte[] frame = new byte[format.bytes(20)];
            for (int f = 0; f < seconds * 50; f++) {
                Arrays.fill(frame, (byte) f);
                recording.frame(frame, frame);
            }
            try {
                bytes += recording.close().get(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("the rehearsal's recording was not written: " + e, e);
            } finally {
                recording.delete();
            }
        }
        return bytes;
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
        /** The samples written after the header so far (io). */
        private long dataBytes;
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

        /** The chunk at the file's end, the file (its header still without a length) made on the first (io). */
        private void append(byte[] chunk) {
            try {
                if (file == null) {
                    file = Files.createTempFile("call-recording-", ".wav");
                    Files.write(file, Wav.header(2, format.sampleRate(), 0));
                }
                byte[] samples = chunk;
                if (!pcm) {
                    samples = new byte[2 * chunk.length];
                    Wav.decodeMulaw(chunk, 0, chunk.length, samples, 0);
                }
                Files.write(file, samples, StandardOpenOption.APPEND);
                dataBytes += samples.length;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public Uni<String> finish() {
            return Uni.createFrom().completionStage(close()).map(length -> file)
                    .chain(path -> objects.put(key, path, "audio/wav"))
                    .onTermination().invoke(this::deleteLater).replaceWith(key);
        }

        /** The last samples written and the header's length set (io): the file's length in bytes. */
        private CompletableFuture<Long> close() {
            flush();
            buffer = null;
            return written.thenApplyAsync(v -> {
                try {
                    if (file == null) {
                        file = Files.createTempFile("call-recording-", ".wav");
                    }
                    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                        channel.write(ByteBuffer.wrap(Wav.header(2, format.sampleRate(), dataBytes)), 0);
                    }
                    return Wav.HEADER_BYTES + dataBytes;
                } catch (IOException e) {
                    delete();
                    throw new UncheckedIOException(e);
                }
            }, io);
        }

        /** The temporary file deleted off whatever thread the store finished on (an event loop, maybe). */
        private void deleteLater() {
            try {
                io.execute(this::delete);
            } catch (RejectedExecutionException shuttingDown) {
                delete();
            }
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
