package dev.voiceagent.application.apikey;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.apikey.ApiKey;
import io.smallrye.mutiny.Uni;
import java.util.function.UnaryOperator;

/** Find a key of the caller's organization (another organization's id is "not found"), change it, store it. */
final class ApiKeyInOrganization {

    static final String NOT_FOUND = "API key not found";

    private ApiKeyInOrganization() {
    }

    static Uni<ApiKey> change(ApiKeyRepository apiKeys, Principal principal, long apiKeyId, UnaryOperator<ApiKey> change) {
        return apiKeys.findInOrganization(principal.organizationId(), apiKeyId).chain(found -> {
            ApiKey key = found.orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND));
            ApiKey changed = change.apply(key);
            return changed.equals(key) ? Uni.createFrom().item(key) : apiKeys.update(changed);
        });
    }
}
