package dev.voiceagent.application.apikey;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.apikey.ApiKey;
import io.smallrye.mutiny.Uni;

public interface ReactivateApiKeyUseCase {

    Uni<ApiKey> reactivate(Principal principal, long apiKeyId);
}
