package dev.voiceagent.adapters.postgres.tool;

import static dev.voiceagent.adapters.postgres.shared.Columns.index;
import dev.voiceagent.adapters.postgres.shared.CredentialCipher;
import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.Rows;
import dev.voiceagent.adapters.postgres.shared.UniqueViolation;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.tool.CredentialRepository;
import dev.voiceagent.domain.tool.Credential;
import dev.voiceagent.domain.tool.CredentialType;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Credentials with their data sealed (AES-GCM) and bound to the organization and the credential's uuid: a sealed
 * value copied to another row does not open.
 */
@DatabaseAccess
@ApplicationScoped
public class PostgresCredentialRepository implements CredentialRepository {

    static final String NAME_TAKEN = "A credential with this name already exists";
    private static final String UNIQUE_NAME = "credentials_organization_name_key";
    private static final String COLUMNS = "id, organization_id, uuid, name, description, credential_type, sealed_data,"
            + " created_at, updated_at";
    private static final int ID = index(COLUMNS, "id");
    private static final int ORGANIZATION_ID = index(COLUMNS, "organization_id");
    private static final int UUID = index(COLUMNS, "uuid");
    private static final int NAME = index(COLUMNS, "name");
    private static final int DESCRIPTION = index(COLUMNS, "description");
    private static final int CREDENTIAL_TYPE = index(COLUMNS, "credential_type");
    private static final int SEALED_DATA = index(COLUMNS, "sealed_data");
    private static final int CREATED_AT = index(COLUMNS, "created_at");
    private static final int UPDATED_AT = index(COLUMNS, "updated_at");

    private final Pool pool;
    private final CredentialCipher cipher;

    public PostgresCredentialRepository(Pool pool, CredentialCipher cipher) {
        this.pool = pool;
        this.cipher = cipher;
    }

    @Override
    public Uni<List<Credential>> list(long organizationId) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM credentials WHERE organization_id = $1"
                        + " AND deleted_at IS NULL ORDER BY created_at DESC, id DESC")
                .execute(Tuple.of(organizationId)).map(rows -> Rows.list(rows, this::credential));
    }

    @Override
    public Uni<Optional<Credential>> find(long organizationId, String uuid) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM credentials WHERE organization_id = $1 AND uuid = $2"
                        + " AND deleted_at IS NULL").execute(Tuple.of(organizationId, uuid))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(credential(rows.iterator().next())));
    }

    @Override
    public Uni<List<Credential>> findAll(long organizationId, Collection<String> uuids) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM credentials WHERE organization_id = $1"
                        + " AND uuid = ANY($2) AND deleted_at IS NULL")
                .execute(Tuple.of(organizationId, uuids.toArray(String[]::new)))
                .map(rows -> Rows.list(rows, this::credential));
    }

    @Override
    public Uni<Credential> insert(Credential c) {
        return pool.preparedQuery("""
                        INSERT INTO credentials (organization_id, uuid, name, description, credential_type,
                        sealed_data, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING\s""" + COLUMNS)
                .execute(Tuple.from(new Object[] {c.organizationId(), c.uuid(), c.name(), c.description(),
                        c.type().wireName(), seal(c), c.createdAt().atOffset(ZoneOffset.UTC),
                        c.updatedAt().atOffset(ZoneOffset.UTC)}))
                .map(rows -> credential(rows.iterator().next()))
                .onFailure(f -> UniqueViolation.of(f, UNIQUE_NAME)).transform(f -> new ConflictException(NAME_TAKEN));
    }

    @Override
    public Uni<Credential> update(Credential c) {
        return pool.preparedQuery("""
                        UPDATE credentials SET name = $3, description = $4, credential_type = $5,
                        sealed_data = $6, updated_at = $7 WHERE organization_id = $1 AND uuid = $2
                        AND deleted_at IS NULL RETURNING\s""" + COLUMNS)
                .execute(Tuple.from(new Object[] {c.organizationId(), c.uuid(), c.name(), c.description(),
                        c.type().wireName(), seal(c), c.updatedAt().atOffset(ZoneOffset.UTC)}))
                .map(rows -> {
                    if (rows.size() == 0) { // deleted meanwhile
                        throw new ResourceNotFoundException("Credential not found");
                    }
                    return credential(rows.iterator().next());
                })
                .onFailure(f -> UniqueViolation.of(f, UNIQUE_NAME)).transform(f -> new ConflictException(NAME_TAKEN));
    }

    @Override
    public Uni<List<String>> deleteUnlessUsed(long organizationId, String uuid) {
        // one statement: the tools still using it are read and the delete happens only when there are none
        return pool.preparedQuery("""
                        WITH users AS (SELECT name FROM tools WHERE organization_id = $1
                        AND status <> 'archived' AND (definition -> 'config' ->> 'credential_uuid' = $2
                        OR definition -> 'config' -> 'resolver' ->> 'credential_uuid' = $2)),
                        gone AS (UPDATE credentials SET deleted_at = now() WHERE organization_id = $1 AND uuid = $2
                        AND deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM users) RETURNING id)
                        SELECT name FROM users ORDER BY name""")
                .execute(Tuple.of(organizationId, uuid)).map(rows -> Rows.list(rows, r -> r.getString("name")));
    }

    private String seal(Credential c) {
        return cipher.seal(new JsonObject(new LinkedHashMap<>(c.data())).encode(), owner(c.organizationId(), c.uuid()));
    }

    private Credential credential(Row r) {
        long organizationId = r.getLong(ORGANIZATION_ID);
        String uuid = r.getString(UUID);
        JsonObject data = new JsonObject(cipher.open(r.getString(SEALED_DATA), owner(organizationId, uuid)));
        Map<String, String> values = new LinkedHashMap<>();
        data.forEach(e -> values.put(e.getKey(), String.valueOf(e.getValue())));
        return new Credential(r.getLong(ID), organizationId, uuid, r.getString(NAME), r.getString(DESCRIPTION),
                CredentialType.byWireName(r.getString(CREDENTIAL_TYPE)).orElseThrow(), values,
                r.getOffsetDateTime(CREATED_AT).toInstant(), r.getOffsetDateTime(UPDATED_AT).toInstant());
    }

    private static String owner(long organizationId, String uuid) {
        return "organization:" + organizationId + ":credential:" + uuid;
    }
}
