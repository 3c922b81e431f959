package dev.voiceagent.application.model;

import io.smallrye.mutiny.Uni;
import java.util.Optional;

/**
 * Out-port: asks a provider whether an endpoint's key works (an OpenAI-compatible GET /models, ElevenLabs
 * GET /v1/user, Deepgram GET /v1/projects, Cartesia GET /voices, AssemblyAI GET /v3/token). Empty when it does, or
 * when this provider has no check; otherwise what the provider said (a refused key, a time-out, an unreachable host).
 */
public interface ModelProviderCheck {

    Uni<Optional<String>> problem(ModelEndpoint endpoint);
}
