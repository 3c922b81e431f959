package dev.voiceagent.application.fakes;

import dev.voiceagent.application.apikey.ApiKeyRepository;
import dev.voiceagent.domain.apikey.ApiKey;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

public class InMemoryApiKeyRepository implements ApiKeyRepository {

    public final Map<Long, ApiKey> keys = new TreeMap<>();
    public final AtomicInteger recordedUses = new AtomicInteger();
    private long nextId = 1;

    @Override
    public Uni<ApiKey> insert(ApiKey key) {
        ApiKey stored = new ApiKey(nextId++, key.organizationId(), key.name(), key.keyPrefix(), key.keyHash(),
                key.active(), key.createdBy(), key.createdAt(), key.lastUsedAt(), key.archivedAt());
        keys.put(stored.id(), stored);
        return Uni.createFrom().item(stored);
    }

    @Override
    public Uni<List<ApiKey>> listByOrganization(long organizationId, boolean includeArchived) {
        return Uni.createFrom().item(new ArrayList<>(keys.values().stream()
                .filter(k -> k.organizationId() == organizationId && (includeArchived || k.usable())).toList()));
    }

    @Override
    public Uni<Optional<ApiKey>> findInOrganization(long organizationId, long id) {
        return Uni.createFrom().item(Optional.ofNullable(keys.get(id)).filter(k -> k.organizationId() == organizationId));
    }

    @Override
    public Uni<ApiKey> update(ApiKey key) {
        keys.put(key.id(), key);
        return Uni.createFrom().item(key);
    }

    @Override
    public Uni<Optional<ApiKey>> findUsableByHash(String keyHash) {
        return Uni.createFrom().item(keys.values().stream().filter(k -> k.keyHash().equals(keyHash) && k.usable()).findFirst());
    }

    @Override
    public Uni<Void> recordUse(long id, Instant usedAt) {
        recordedUses.incrementAndGet();
        ApiKey k = keys.get(id);
        keys.put(id, new ApiKey(k.id(), k.organizationId(), k.name(), k.keyPrefix(), k.keyHash(), k.active(),
                k.createdBy(), k.createdAt(), usedAt, k.archivedAt()));
        return Uni.createFrom().voidItem();
    }
}
