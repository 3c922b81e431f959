package dev.voiceagent.application.voice.runtime;

import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.domain.audio.AmbientLoop;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.storage.ObjectKeys;
import dev.voiceagent.domain.voice.CallSettings.AmbientNoise;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sound a call plays under the agent's voice ({@code ambient_noise_configuration}): the workflow's uploaded WAV file
 * (read off the event loop, converted to the call's rate once and cached like the recorded prompts), or the default
 * room tone. As the reference does, a file that cannot be played (gone, not WAV, too large) plays the default instead,
 * with a warning in the log: the call is not refused for its background.
 */
@Singleton
public class AmbientSounds {

    private static final System.Logger LOG = System.getLogger(AmbientSounds.class.getName());

    /** Files larger than the ambient upload limit are not read. */
    static final int MAX_BYTES = (int) ObjectKeys.MAX_CSV_BYTES;
    /** Uploaded sounds at a call's rate, as 16-bit PCM, most recently played kept. */
    static final long CACHE_BYTES = 32L * 1024 * 1024;

    private final ObjectStore objects;
    private final RecordedPrompts.Cache cache = new RecordedPrompts.Cache(CACHE_BYTES);
    private final Map<Integer, short[]> roomTones = new ConcurrentHashMap<>();

    public AmbientSounds(ObjectStore objects) {
        this.objects = objects;
    }

    /** The call's ambient loop for its format, or null when the workflow has none. */
    public Uni<AmbientLoop> load(AmbientNoise noise, AudioFormat format) {
        if (noise == null) {
            return Uni.createFrom().nullItem();
        }
        int rate = format.sampleRate();
        if (noise.storageKey() == null) {
            return Uni.createFrom().item(new AmbientLoop(roomTone(rate), rate, noise.volume()));
        }
        String key = noise.storageKey() + "/" + rate;
        byte[] cached = cache.get(key);
        if (cached != null) {
            return Uni.createFrom().item(new AmbientLoop(Pcm16.samples(cached), rate, noise.volume()));
        }
        return objects.open(noise.storageKey()).emitOn(Infrastructure.getDefaultWorkerPool())
                .map(stream -> {
                    short[] samples = RecordedPrompts.samples(RecordedPrompts.read(stream.orElseThrow(
                            () -> new DomainRuleViolation("the file is missing")), MAX_BYTES), rate);
                    AmbientLoop loop = new AmbientLoop(samples, rate, noise.volume()); // too short: refused here
                    cache.put(key, Pcm16.bytes(samples));
                    return loop;
                })
                .onFailure().recoverWithItem(failure -> {
                    LOG.log(System.Logger.Level.WARNING, "ambient sound {0} cannot play ({1}): the room tone plays"
                            + " instead", noise.storageKey(), failure.getMessage());
                    return new AmbientLoop(roomTone(rate), rate, noise.volume());
                });
    }

    private short[] roomTone(int rate) {
        return roomTones.computeIfAbsent(rate, AmbientLoop::roomTone);
    }
}
