package dev.voiceagent.application.apikey;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.apikey.ApiKey;
import io.smallrye.mutiny.Uni;

@Singleton
public class ReactivateApiKeyService implements ReactivateApiKeyUseCase {

    private final ApiKeyRepository apiKeys;

    public ReactivateApiKeyService(ApiKeyRepository apiKeys) {
        this.apiKeys = apiKeys;
    }

    @Override
    public Uni<ApiKey> reactivate(Principal principal, long apiKeyId) {
        return ApiKeyInOrganization.change(apiKeys, principal, apiKeyId, ApiKey::reactivate);
    }
}
