package dev.voiceagent.adapters.postgres.servicekey;

import static dev.voiceagent.adapters.postgres.shared.Columns.index;
import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.Rows;
import dev.voiceagent.application.servicekey.ServiceKeyRepository;
import dev.voiceagent.domain.servicekey.ServiceKey;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/** Service keys: only the hash and the display prefix are stored. */
@DatabaseAccess
@ApplicationScoped
public class PostgresServiceKeyRepository implements ServiceKeyRepository {

    private static final String COLUMNS = "id, organization_id, name, key_prefix, key_hash, is_active, created_by,"
            + " created_at, last_used_at, expires_at, archived_at";
    private static final int ID = index(COLUMNS, "id");
    private static final int ORGANIZATION_ID = index(COLUMNS, "organization_id");
    private static final int NAME = index(COLUMNS, "name");
    private static final int KEY_PREFIX = index(COLUMNS, "key_prefix");
    private static final int KEY_HASH = index(COLUMNS, "key_hash");
    private static final int IS_ACTIVE = index(COLUMNS, "is_active");
    private static final int CREATED_BY = index(COLUMNS, "created_by");
    private static final int CREATED_AT = index(COLUMNS, "created_at");
    private static final int LAST_USED_AT = index(COLUMNS, "last_used_at");
    private static final int EXPIRES_AT = index(COLUMNS, "expires_at");
    private static final int ARCHIVED_AT = index(COLUMNS, "archived_at");

    private final Pool pool;

    public PostgresServiceKeyRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<ServiceKey> insert(ServiceKey k) {
        return pool.preparedQuery("""
                        INSERT INTO service_keys (organization_id, name, key_prefix, key_hash, is_active,
                        created_by, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING\s""" + COLUMNS)
                .execute(Tuple.tuple().addLong(k.organizationId()).addString(k.name()).addString(k.keyPrefix())
                        .addString(k.keyHash()).addBoolean(k.active()).addLong(k.createdBy()).addOffsetDateTime(utc(k.createdAt()))
                        .addOffsetDateTime(utc(k.expiresAt())))
                .map(rows -> key(rows.iterator().next()));
    }

    @Override
    public Uni<List<ServiceKey>> list(long organizationId, boolean includeArchived) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM service_keys WHERE organization_id = $1"
                        + (includeArchived ? "" : " AND archived_at IS NULL") + " ORDER BY id")
                .execute(Tuple.of(organizationId)).map(rows -> Rows.list(rows, PostgresServiceKeyRepository::key));
    }

    @Override
    public Uni<Optional<ServiceKey>> find(long organizationId, long id) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM service_keys WHERE organization_id = $1 AND id = $2")
                .execute(Tuple.of(organizationId, id))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(key(rows.iterator().next())));
    }

    @Override
    public Uni<ServiceKey> update(ServiceKey k) {
        return pool.preparedQuery("""
                        UPDATE service_keys SET is_active = $3, archived_at = $4 WHERE organization_id = $1
                        AND id = $2 RETURNING\s""" + COLUMNS)
                .execute(Tuple.tuple().addLong(k.organizationId()).addLong(k.id()).addBoolean(k.active())
                        .addOffsetDateTime(k.archivedAt() == null ? null : utc(k.archivedAt())))
                .map(rows -> key(rows.iterator().next()));
    }

    @Override
    public Uni<Optional<ServiceKey>> findUsableByHash(String keyHash, Instant now) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM service_keys WHERE key_hash = $1 AND is_active"
                        + " AND archived_at IS NULL AND expires_at > $2").execute(Tuple.of(keyHash, utc(now)))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(key(rows.iterator().next())));
    }

    @Override
    public Uni<Void> recordUse(long id, Instant usedAt) {
        // monotonic: a slower replica never moves it back
        return pool.preparedQuery("""
                        UPDATE service_keys SET last_used_at = $2 WHERE id = $1
                        AND (last_used_at IS NULL OR last_used_at < $2)""").execute(Tuple.of(id, utc(usedAt)))
                .replaceWithVoid();
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    private static Instant instant(Row r, int column) {
        OffsetDateTime value = r.getOffsetDateTime(column);
        return value == null ? null : value.toInstant();
    }

    private static ServiceKey key(Row r) {
        return new ServiceKey(r.getLong(ID), r.getLong(ORGANIZATION_ID), r.getString(NAME), r.getString(KEY_PREFIX), r.getString(KEY_HASH), r.getBoolean(IS_ACTIVE),
                r.getLong(CREATED_BY), instant(r, CREATED_AT), instant(r, LAST_USED_AT), instant(r, EXPIRES_AT),
                instant(r, ARCHIVED_AT));
    }
}
