package dev.voiceagent.adapters.storage.recording;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.storage.ObjectMetadata;
import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.application.voice.runtime.port.out.CallRecorder;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Wav;
import io.smallrye.mutiny.Uni;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A call's recording, written as it goes and stored as one stereo WAV: the caller left, the agent right. */
class TempFileCallRecorderTest {

    private final Map<String, byte[]> stored = new HashMap<>();
    /** The temporary files the recordings were stored from: deleted once stored. */
    private final List<Path> files = new ArrayList<>();
    private final TempFileCallRecorder recorder = new TempFileCallRecorder(new MemoryStore());

    @AfterEach
    void close() {
        recorder.close();
    }

    @Test
    void aPhoneCallIsDecodedIntoStereoSamplesAcrossManyFlushes() throws Exception {
        CallRecorder.Recording recording = recorder.open(7, 42, AudioFormat.MULAW_8K);
        int frames = 3 * TempFileCallRecorder.BUFFER / 320 + 7; // more than three buffers: flushed, appended, read back
        for (int f = 0; f < frames; f++) {
            byte[] caller = new byte[160];
            byte[] agent = new byte[f % 5 == 0 ? 80 : 160]; // the agent's side short of a frame: silence pads it
            for (int i = 0; i < caller.length; i++) {
                caller[i] = (byte) (f * 7 + i);
            }
            for (int i = 0; i < agent.length; i++) {
                agent[i] = (byte) (f * 13 - i);
            }
            recording.frame(caller, agent);
        }
        String key = recording.finish().await().atMost(Duration.ofSeconds(10));

        byte[] wav = stored.get(key);
        assertThat(key).isEqualTo("recordings/7/runs/42.wav");
        assertThat(wav).hasSize(Wav.HEADER_BYTES + frames * 160 * 4);
        assertThat(java.util.Arrays.copyOf(wav, Wav.HEADER_BYTES))
                .isEqualTo(Wav.header(2, 8_000, (long) frames * 160 * 4));
        ByteBuffer samples = ByteBuffer.wrap(wav).order(ByteOrder.LITTLE_ENDIAN);
        for (int f = 0; f < frames; f++) {
            for (int i = 0; i < 160; i++) {
                int at = Wav.HEADER_BYTES + (f * 160 + i) * 4;
                assertThat(samples.getShort(at)).as("frame %d, caller sample %d", f, i)
                        .isEqualTo(G711.decode((byte) (f * 7 + i)));
                short agent = f % 5 == 0 && i >= 80 ? G711.decode((byte) 0xFF) : G711.decode((byte) (f * 13 - i));
                assertThat(samples.getShort(at + 2)).as("frame %d, agent sample %d", f, i).isEqualTo(agent);
            }
        }
        assertThat(files).hasSize(1);
        assertGone(files.getFirst());
    }

    @Test
    void aRecordingTheStoreRefusesLeavesNoFileBehind() throws Exception {
        List<Path> offered = new ArrayList<>();
        TempFileCallRecorder refused = new TempFileCallRecorder(new MemoryStore() {
            @Override
            public Uni<Void> put(String key, Path file, String contentType) {
                offered.add(file);
                return Uni.createFrom().failure(new IllegalStateException("object store answered 503"));
            }
        });
        try {
            CallRecorder.Recording recording = refused.open(7, 45, AudioFormat.MULAW_8K);
            recording.frame(new byte[160], new byte[160]);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> recording.finish().await()
                    .atMost(Duration.ofSeconds(10))).hasMessageContaining("503");
            assertThat(offered).hasSize(1);
            assertGone(offered.getFirst());
        } finally {
            refused.close();
        }
    }

    @Test
    void aBrowserCallKeepsItsSamplesAndACallWithNoAudioIsAHeader() {
        CallRecorder.Recording recording = recorder.open(7, 43, AudioFormat.PCM_16K);
        byte[] caller = {1, 2, 3, 4};
        byte[] agent = {5, 6, 7, 8};
        for (int f = 0; f < TempFileCallRecorder.BUFFER; f++) { // 8 bytes a frame: 8 buffers
            recording.frame(caller, agent);
        }
        byte[] wav = stored.get(recording.finish().await().atMost(Duration.ofSeconds(10)));
        assertThat(wav).hasSize(Wav.HEADER_BYTES + TempFileCallRecorder.BUFFER * 8);
        assertThat(java.util.Arrays.copyOfRange(wav, wav.length - 8, wav.length)).containsExactly(1, 2, 5, 6, 3, 4, 7, 8);
        assertThat(java.util.Arrays.copyOf(wav, Wav.HEADER_BYTES))
                .isEqualTo(Wav.header(2, 16_000, TempFileCallRecorder.BUFFER * 8L));

        byte[] empty = stored.get(recorder.open(7, 44, AudioFormat.MULAW_8K).finish().await()
                .atMost(Duration.ofSeconds(10)));
        assertThat(empty).isEqualTo(Wav.header(2, 8_000, 0));
    }

    @Test
    void aRehearsalWritesBothFormatsThroughTemporaryFilesAndLeavesNothingStoredOrBehind() throws Exception {
        Path temp = Path.of(System.getProperty("java.io.tmpdir"));
        List<Path> before = recordingFiles(temp);

        long written = recorder.rehearse(3);

        // 3 s of μ-law decoded to 16-bit stereo, 3 s of 16 kHz PCM stereo, each file with its header
        assertThat(written).isEqualTo(Wav.HEADER_BYTES + 3 * 8_000 * 4 + Wav.HEADER_BYTES + 3 * 16_000 * 4);
        assertThat(stored).as("nothing stored").isEmpty();
        // (a file of another test's recording may still be on its way out: only new ones count)
        assertThat(recordingFiles(temp)).as("its temporary files deleted").allMatch(before::contains);
    }

    private static List<Path> recordingFiles(Path dir) throws java.io.IOException {
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("call-recording-")).sorted().toList();
        }
    }

    /** The temporary file is deleted once the store is done with it (off the thread that finished: within a moment). */
    private static void assertGone(Path file) throws InterruptedException {
        for (int i = 0; i < 100 && Files.exists(file); i++) {
            Thread.sleep(50);
        }
        assertThat(file).doesNotExist();
    }

    /** The store's put, in memory; the rest is not used by recordings. */
    private class MemoryStore implements ObjectStore {
        @Override
        public String backendName() {
            return "memory";
        }

        @Override
        public Uni<String> signedUploadUrl(String key, String contentType, long maxBytes, Duration ttl) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<String> signedDownloadUrl(String key, Duration ttl, boolean inline) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<Optional<ObjectMetadata>> metadata(String key) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<Void> put(String key, byte[] content, String contentType) {
            throw new UnsupportedOperationException("a recording is stored from its file");
        }

        @Override
        public Uni<Void> put(String key, Path file, String contentType) {
            assertThat(contentType).isEqualTo("audio/wav");
            try {
                stored.put(key, Files.readAllBytes(file));
                files.add(file);
            } catch (java.io.IOException e) {
                return Uni.createFrom().failure(e);
            }
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<Optional<InputStream>> open(String key) {
            throw new UnsupportedOperationException();
        }
    }
}
