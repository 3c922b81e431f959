package dev.voiceagent.application.apikey;

import dev.voiceagent.domain.apikey.ApiKey;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Out-port: API keys, always addressed within one organization except for the lookup by hash. */
public interface ApiKeyRepository {

    Uni<ApiKey> insert(ApiKey key);

    /** Oldest first; archived keys only when asked for. */
    Uni<List<ApiKey>> listByOrganization(long organizationId, boolean includeArchived);

    /** Archived keys included, so that they can be reactivated. */
    Uni<Optional<ApiKey>> findInOrganization(long organizationId, long id);

    Uni<ApiKey> update(ApiKey key);

    /** The active, non-archived key with this SHA-256 hash. */
    Uni<Optional<ApiKey>> findUsableByHash(String keyHash);

    Uni<Void> recordUse(long id, Instant usedAt);
}
