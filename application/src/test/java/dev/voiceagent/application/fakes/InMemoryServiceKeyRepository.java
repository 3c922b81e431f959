package dev.voiceagent.application.fakes;

import dev.voiceagent.application.servicekey.ServiceKeyRepository;
import dev.voiceagent.domain.servicekey.ServiceKey;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Service keys in memory, for the application's unit tests. */
public class InMemoryServiceKeyRepository implements ServiceKeyRepository {

    private final Map<Long, ServiceKey> keys = new ConcurrentHashMap<>();
    private long nextId = 1;

    @Override
    public Uni<ServiceKey> insert(ServiceKey k) {
        ServiceKey stored = new ServiceKey(nextId++, k.organizationId(), k.name(), k.keyPrefix(), k.keyHash(), k.active(),
                k.createdBy(), k.createdAt(), k.lastUsedAt(), k.expiresAt(), k.archivedAt());
        keys.put(stored.id(), stored);
        return Uni.createFrom().item(stored);
    }

    @Override
    public Uni<List<ServiceKey>> list(long organizationId, boolean includeArchived) {
        return Uni.createFrom().item(new ArrayList<>(keys.values().stream().filter(k -> k.organizationId() == organizationId
                && (includeArchived || k.archivedAt() == null)).toList()));
    }

    @Override
    public Uni<Optional<ServiceKey>> find(long organizationId, long id) {
        return Uni.createFrom().item(Optional.ofNullable(keys.get(id)).filter(k -> k.organizationId() == organizationId));
    }

    @Override
    public Uni<ServiceKey> update(ServiceKey key) {
        keys.put(key.id(), key);
        return Uni.createFrom().item(key);
    }

    @Override
    public Uni<Optional<ServiceKey>> findUsableByHash(String keyHash, Instant now) {
        return Uni.createFrom().item(keys.values().stream().filter(k -> k.keyHash().equals(keyHash) && k.usable(now))
                .findFirst());
    }

    @Override
    public Uni<Void> recordUse(long id, Instant usedAt) {
        ServiceKey k = keys.get(id);
        keys.put(id, new ServiceKey(k.id(), k.organizationId(), k.name(), k.keyPrefix(), k.keyHash(), k.active(),
                k.createdBy(), k.createdAt(), usedAt, k.expiresAt(), k.archivedAt()));
        return Uni.createFrom().voidItem();
    }
}
