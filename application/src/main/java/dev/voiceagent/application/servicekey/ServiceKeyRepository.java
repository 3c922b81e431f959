package dev.voiceagent.application.servicekey;

import dev.voiceagent.domain.servicekey.ServiceKey;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Out-port: service keys, addressed within one organization except for the lookup by hash. */
public interface ServiceKeyRepository {

    Uni<ServiceKey> insert(ServiceKey key);

    /** Oldest first; archived keys only when asked for. */
    Uni<List<ServiceKey>> list(long organizationId, boolean includeArchived);

    Uni<Optional<ServiceKey>> find(long organizationId, long id);

    Uni<ServiceKey> update(ServiceKey key);

    /** The key with this hash that is active, not archived and not expired at {@code now}. */
    Uni<Optional<ServiceKey>> findUsableByHash(String keyHash, Instant now);

    Uni<Void> recordUse(long id, Instant usedAt);
}
