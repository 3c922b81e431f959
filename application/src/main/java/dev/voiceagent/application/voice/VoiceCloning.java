package dev.voiceagent.application.voice;

import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.shared.UpstreamServiceException;
import io.smallrye.mutiny.Uni;
import java.util.List;

/**
 * Out-port: a text-to-speech provider's voice cloning. A provider that fails or refuses is an
 * {@link UpstreamServiceException} with its message.
 */
public interface VoiceCloning {

    /** A sample of the voice to clone. */
    record Sample(String filename, String contentType, byte[] audio) {
    }

    /** Whether the provider can clone voices here, and why not. */
    record Capability(boolean canClone, String reason) {
    }

    Capability capability(String provider);

    /** Creates the voice; its id at the provider. */
    Uni<String> create(ModelEndpoint tts, String name, String description, List<Sample> samples);

    /** Speech in the voice (audio/mpeg). */
    Uni<byte[]> speak(ModelEndpoint tts, String voiceId, String text);

    /** Removes the voice at the provider (one already gone is fine). */
    Uni<Void> delete(ModelEndpoint tts, String voiceId);
}
