package dev.voiceagent.application.apikey;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.apikey.ApiKey;
import io.smallrye.mutiny.Uni;
import java.util.List;

@Singleton
public class ListApiKeysService implements ListApiKeysUseCase {

    private final ApiKeyRepository apiKeys;

    public ListApiKeysService(ApiKeyRepository apiKeys) {
        this.apiKeys = apiKeys;
    }

    @Override
    public Uni<List<ApiKey>> list(Principal principal, boolean includeArchived) {
        return apiKeys.listByOrganization(principal.organizationId(), includeArchived);
    }
}
