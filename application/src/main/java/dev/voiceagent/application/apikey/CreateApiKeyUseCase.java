package dev.voiceagent.application.apikey;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface CreateApiKeyUseCase {

    Uni<CreatedApiKey> create(Principal principal, String name);
}
