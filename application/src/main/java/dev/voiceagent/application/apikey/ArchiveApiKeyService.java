package dev.voiceagent.application.apikey;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.apikey.ApiKey;
import io.smallrye.mutiny.Uni;
import java.time.Clock;

@Singleton
public class ArchiveApiKeyService implements ArchiveApiKeyUseCase {

    private final ApiKeyRepository apiKeys;
    private final Clock clock;

    public ArchiveApiKeyService(ApiKeyRepository apiKeys, Clock clock) {
        this.apiKeys = apiKeys;
        this.clock = clock;
    }

    @Override
    public Uni<ApiKey> archive(Principal principal, long apiKeyId) {
        return ApiKeyInOrganization.change(apiKeys, principal, apiKeyId, key -> key.archive(clock.instant()));
    }
}
