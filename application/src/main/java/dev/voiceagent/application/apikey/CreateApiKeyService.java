package dev.voiceagent.application.apikey;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.apikey.ApiKey;
import dev.voiceagent.domain.apikey.ApiKeySecret;
import io.smallrye.mutiny.Uni;
import java.security.SecureRandom;
import java.time.Clock;

@Singleton
public class CreateApiKeyService implements CreateApiKeyUseCase {

    private final ApiKeyRepository apiKeys;
    private final SecureRandom random;
    private final Clock clock;

    public CreateApiKeyService(ApiKeyRepository apiKeys, SecureRandom random, Clock clock) {
        this.apiKeys = apiKeys;
        this.random = random;
        this.clock = clock;
    }

    @Override
    public Uni<CreatedApiKey> create(Principal principal, String name) {
        ApiKeySecret secret = ApiKeySecret.generate(random);
        ApiKey key = ApiKey.issue(principal.organizationId(), principal.userId(), name, secret, clock.instant());
        return apiKeys.insert(key).map(stored -> new CreatedApiKey(stored, secret));
    }
}
