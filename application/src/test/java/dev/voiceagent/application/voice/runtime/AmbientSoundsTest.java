package dev.voiceagent.application.voice.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.storage.ObjectMetadata;
import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.domain.audio.AmbientLoop;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.Loudness;
import dev.voiceagent.domain.audio.Wav;
import dev.voiceagent.domain.voice.CallSettings.AmbientNoise;
import io.smallrye.mutiny.Uni;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AmbientSoundsTest {

    /** Files by key; counts the opens. */
    static final class Files implements ObjectStore {
        final Map<String, byte[]> files = new HashMap<>();
        int opens;

        @Override
        public Uni<Void> put(String key, java.nio.file.Path file, String contentType) {
            throw new UnsupportedOperationException();
        }

        @Override
        public String backendName() {
            return "local";
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
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<Optional<InputStream>> open(String key) {
            opens++;
            byte[] file = files.get(key);
            return Uni.createFrom().item(Optional.ofNullable(file).map(ByteArrayInputStream::new));
        }
    }

    static byte[] wav(short[] samples, int rate) {
        ByteBuffer b = ByteBuffer.allocate(Wav.HEADER_BYTES + samples.length * 2).order(ByteOrder.LITTLE_ENDIAN);
        b.put(Wav.header(1, rate, samples.length * 2L));
        for (short s : samples) {
            b.putShort(s);
        }
        return b.array();
    }

    final Files files = new Files();
    final AmbientSounds sounds = new AmbientSounds(files);

    @Test
    void theWorkflowsFileIsResampledToTheCallsRateOnceAndPlayedAtItsVolume() {
        short[] hum = new short[16_000];
        for (int i = 0; i < hum.length; i++) {
            hum[i] = (short) Math.round(8_000 * Math.sin(2 * Math.PI * 300 * i / 16_000.0));
        }
        files.files.put("ambient_noise/1/2/a_hum.wav", wav(hum, 16_000));
        AmbientNoise noise = new AmbientNoise(0.5, "ambient_noise/1/2/a_hum.wav");
        AmbientLoop loop = sounds.load(noise, AudioFormat.MULAW_8K).await().indefinitely();
        // the hum at half volume: 4,000 peak, -21.3 dBFS
        assertThat(Loudness.dbfs(loop.next(800))).isBetween(-22.0, -20.5);
        sounds.load(noise, AudioFormat.MULAW_8K).await().indefinitely();
        assertThat(files.opens).as("converted once, then from the cache").isEqualTo(1);
        sounds.load(noise, AudioFormat.PCM_16K).await().indefinitely();
        assertThat(files.opens).as("another rate is another conversion").isEqualTo(2);
    }

    @Test
    void aFileThatCannotPlayGivesTheRoomToneAndNoSoundIsNoLoop() {
        files.files.put("ambient_noise/1/2/a_short.wav", wav(new short[100], 8_000));
        files.files.put("ambient_noise/1/2/a_fake.wav", "not a wav at all".getBytes());
        double roomTone = Loudness.dbfs(new AmbientLoop(AmbientLoop.roomTone(8_000), 8_000, 1).next(8_000 * 4));
        for (String key : new String[] {"ambient_noise/1/2/a_gone.wav", "ambient_noise/1/2/a_short.wav",
                "ambient_noise/1/2/a_fake.wav"}) {
            AmbientLoop loop = sounds.load(new AmbientNoise(1, key), AudioFormat.MULAW_8K).await().indefinitely();
            assertThat(Loudness.dbfs(loop.next(8_000 * 4))).as(key).isCloseTo(roomTone, org.assertj.core.data.Offset
                    .offset(0.01));
        }
        assertThat(sounds.load(null, AudioFormat.MULAW_8K).await().indefinitely()).isNull();
    }
}
