package dev.voiceagent.application.model;

import dev.voiceagent.application.shared.UpstreamServiceException;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Optional;

/**
 * Out-port: the voices of a text-to-speech provider, live from its API with the organization's key where it lists
 * them (every provider of the catalog but those that document a fixed list: OpenAI, Deepgram Aura, Sarvam).
 * Empty for a provider this service cannot list; an {@link UpstreamServiceException}
 * when the provider fails.
 */
public interface VoiceCatalog {

    Uni<Optional<List<Voice>>> voices(String provider, ModelEndpoint endpoint);
}
