package dev.voiceagent.application.voice.runtime;

import dev.voiceagent.application.recording.RecordingRepository;
import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.audio.Resampler;
import dev.voiceagent.domain.audio.Wav;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;

/**
 * The organization's pre-recorded prompts (workflow recordings) as a call plays them: the recording's transcript (what
 * it says, for the conversation) and its audio in the call's format. The file is read off the event loop; WAV files
 * (16-bit PCM or μ-law, any rate) play, other formats are refused with the reason. Each recording is converted to a
 * format once: the converted audio is cached (bounded by bytes, least recently played first out), keyed by the stored
 * file, so a recording uploaded again is converted again.
 */
@Singleton
public class RecordedPrompts {

    /** Files larger than the recordings' upload limit are not read. */
    static final int MAX_BYTES = 5 * 1024 * 1024;

    /** A prompt ready to play: what it says and its audio, in whole 20 ms frames of the call's format. */
    public record Prompt(String transcript, byte[] audio) {
    }

    private final RecordingRepository recordings;
    private final ObjectStore objects;

    public RecordedPrompts(RecordingRepository recordings, ObjectStore objects) {
        this.recordings = recordings;
        this.objects = objects;
    }

    public Uni<Prompt> load(long organizationId, String recordingId, AudioFormat format) {
        return recordings.findByRecordingId(organizationId, recordingId).chain(found -> {
            if (found.isEmpty() || found.get().storageKey() == null) {
                return Uni.createFrom().failure(new DomainRuleViolation("no recording " + recordingId));
            }
            String transcript = found.get().transcript();
            String storageKey = found.get().storageKey();
            // the stored file names the version: a recording uploaded again is converted again
            String key = organizationId + "/" + storageKey + "/" + format.encoding() + "/" + format.sampleRate();
            byte[] cached = cache.get(key);
            if (cached != null) {
                return Uni.createFrom().item(new Prompt(transcript, cached));
            }
            return objects.open(storageKey).emitOn(Infrastructure.getDefaultWorkerPool())
                    .map(stream -> {
                        byte[] audio = convert(read(stream.orElseThrow(() -> new DomainRuleViolation(
                                "the file of recording " + recordingId + " is missing")), MAX_BYTES), format);
                        cache.put(key, audio);
                        return new Prompt(transcript, audio);
                    });
        });
    }

    /**
     * Where a carrier can fetch the organization's recording itself for {@code ttl} (a transfer's whisper, played by
     * the carrier to the person who answers): a signed address of the stored file.
     */
    public Uni<String> publicUrl(long organizationId, String recordingId, Duration ttl) {
        return recordings.findByRecordingId(organizationId, recordingId).chain(found -> {
            if (found.isEmpty() || found.get().storageKey() == null) {
                return Uni.createFrom().failure(new DomainRuleViolation("no recording " + recordingId));
            }
            return objects.signedDownloadUrl(found.get().storageKey(), ttl, true);
        });
    }

    /** Prompts converted to a call's format, most recently played kept, up to {@link #CACHE_BYTES} in all. */
    static final long CACHE_BYTES = 32L * 1024 * 1024;

    private final Cache cache = new Cache(CACHE_BYTES);

    /** A least-recently-used map bounded by the bytes of its values (calls on many threads). */
    static final class Cache {
        private final long limit;
        private final LinkedHashMap<String, byte[]> entries = new LinkedHashMap<>(16, 0.75f, true);
        private long bytes;

        Cache(long limit) {
            this.limit = limit;
        }

        synchronized byte[] get(String key) {
            return entries.get(key);
        }

        synchronized void put(String key, byte[] audio) {
            byte[] before = entries.put(key, audio);
            bytes += audio.length - (before == null ? 0 : before.length);
            var eldest = entries.entrySet().iterator();
            while (bytes > limit && eldest.hasNext()) {
                var entry = eldest.next();
                if (entry.getValue() != audio) {
                    bytes -= entry.getValue().length;
                    eldest.remove();
                }
            }
        }

        synchronized int size() {
            return entries.size();
        }
    }

    /** A stored file's bytes, at most {@code maxBytes} (a larger file is refused, not read further). */
    static byte[] read(InputStream in, int maxBytes) {
        try (in) {
            byte[] bytes = in.readNBytes(maxBytes + 1);
            if (bytes.length > maxBytes) {
                throw new DomainRuleViolation("the file is larger than " + maxBytes + " bytes");
            }
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] convert(byte[] file, AudioFormat format) {
        short[] samples = samples(file, format.sampleRate());
        int frame = format.sampleRate() / 50;
        short[] whole = Arrays.copyOf(samples, Math.max(1, (samples.length + frame - 1) / frame) * frame);
        return format.encoding() == AudioFormat.Encoding.MULAW ? G711.encode(whole) : Pcm16.bytes(whole);
    }

    /** A WAV file's samples at {@code sampleRate} (resampled once when recorded at another). */
    static short[] samples(byte[] file, int sampleRate) {
        Wav.Audio audio = Wav.read(file);
        return audio.sampleRate() == sampleRate ? audio.samples() : resample(audio, sampleRate);
    }

    private static short[] resample(Wav.Audio audio, int sampleRate) {
        Resampler resampler = new Resampler(audio.sampleRate(), sampleRate);
        short[] head = resampler.process(audio.samples());
        short[] tail = resampler.flush();
        short[] all = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }
}
