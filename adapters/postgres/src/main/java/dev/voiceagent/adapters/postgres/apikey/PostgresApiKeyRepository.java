package dev.voiceagent.adapters.postgres.apikey;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.application.apikey.ApiKeyRepository;
import dev.voiceagent.domain.apikey.ApiKey;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

@DatabaseAccess
@ApplicationScoped
public class PostgresApiKeyRepository implements ApiKeyRepository {

    @Override
    @WithTransaction
    public Uni<ApiKey> insert(ApiKey key) {
        ApiKeyEntity entity = new ApiKeyEntity();
        copy(key, entity);
        return entity.<ApiKeyEntity>persistAndFlush().map(PostgresApiKeyRepository::toDomain);
    }

    @Override
    @WithSession
    public Uni<List<ApiKey>> listByOrganization(long organizationId, boolean includeArchived) {
        String query = includeArchived
                ? "organizationId = :org"
                : "organizationId = :org and archivedAt is null and active = true";
        return ApiKeyEntity.<ApiKeyEntity>find(query, Sort.by("id"), Parameters.with("org", organizationId)).list()
                .map(list -> list.stream().map(PostgresApiKeyRepository::toDomain).toList());
    }

    @Override
    @WithSession
    public Uni<Optional<ApiKey>> findInOrganization(long organizationId, long id) {
        return ApiKeyEntity.<ApiKeyEntity>find("organizationId = ?1 and id = ?2", organizationId, id).firstResult()
                .map(entity -> Optional.ofNullable(entity).map(PostgresApiKeyRepository::toDomain));
    }

    @Override
    @WithTransaction
    public Uni<ApiKey> update(ApiKey key) {
        return ApiKeyEntity.<ApiKeyEntity>find("organizationId = ?1 and id = ?2", key.organizationId(), key.id())
                .firstResult()
                .map(entity -> {
                    copy(key, entity);
                    return toDomain(entity);
                });
    }

    @Override
    @WithSession
    public Uni<Optional<ApiKey>> findUsableByHash(String keyHash) {
        return ApiKeyEntity.<ApiKeyEntity>find("keyHash = ?1 and active = true and archivedAt is null", keyHash)
                .firstResult()
                .map(entity -> Optional.ofNullable(entity).map(PostgresApiKeyRepository::toDomain));
    }

    @Override
    @WithTransaction
    public Uni<Void> recordUse(long id, Instant usedAt) {
        // Monotonic: a slower request never moves last_used_at backwards.
        return ApiKeyEntity.update("lastUsedAt = ?1 where id = ?2 and (lastUsedAt is null or lastUsedAt < ?1)", usedAt, id)
                .replaceWithVoid();
    }

    private static void copy(ApiKey key, ApiKeyEntity entity) {
        entity.organizationId = key.organizationId();
        entity.name = key.name();
        entity.keyHash = key.keyHash();
        entity.keyPrefix = key.keyPrefix();
        entity.active = key.active();
        entity.createdBy = key.createdBy();
        entity.lastUsedAt = key.lastUsedAt();
        entity.createdAt = key.createdAt();
        entity.archivedAt = key.archivedAt();
    }

    static ApiKey toDomain(ApiKeyEntity e) {
        return new ApiKey(e.id, e.organizationId, e.name, e.keyPrefix, e.keyHash, e.active, e.createdBy, e.createdAt,
                e.lastUsedAt, e.archivedAt);
    }
}
