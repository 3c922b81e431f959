package dev.voiceagent.adapters.postgres.model;

import dev.voiceagent.adapters.postgres.shared.CredentialCipher;
import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.application.model.ModelConfigurationRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;

/** Model configurations sealed whole (they hold provider keys), each bound to its owner. */
@DatabaseAccess
@ApplicationScoped
public class PostgresModelConfigurationRepository implements ModelConfigurationRepository {

    private final Pool pool;
    private final CredentialCipher cipher;

    public PostgresModelConfigurationRepository(Pool pool, CredentialCipher cipher) {
        this.pool = pool;
        this.cipher = cipher;
    }

    @Override
    public Uni<Optional<Map<String, Object>>> organizationConfiguration(long organizationId) {
        return pool.preparedQuery("""
                SELECT sealed_configuration FROM organization_model_configurations
                WHERE organization_id = $1""").execute(Tuple.of(organizationId))
                .map(rows -> rows.size() == 0 ? Optional.empty()
                        : Optional.of(open(rows.iterator().next().getString("sealed_configuration"),
                                organizationOwner(organizationId))));
    }

    @Override
    public Uni<Void> saveOrganizationConfiguration(long organizationId, Map<String, Object> configuration, Instant at) {
        return pool.preparedQuery("""
                        INSERT INTO organization_model_configurations (organization_id, sealed_configuration,
                        updated_at) VALUES ($1, $2, $3) ON CONFLICT (organization_id) DO UPDATE SET
                        sealed_configuration = excluded.sealed_configuration, updated_at = excluded.updated_at""")
                .execute(Tuple.of(organizationId, seal(configuration, organizationOwner(organizationId)),
                        at.atOffset(ZoneOffset.UTC))).replaceWithVoid();
    }

    @Override
    public Uni<Optional<Map<String, Object>>> userConfiguration(long organizationId, long userId) {
        return pool.preparedQuery("""
                        SELECT sealed_configuration FROM user_model_configurations
                        WHERE organization_id = $1 AND user_id = $2""").execute(Tuple.of(organizationId, userId))
                .map(rows -> rows.size() == 0 ? Optional.empty()
                        : Optional.of(open(rows.iterator().next().getString("sealed_configuration"),
                                userOwner(organizationId, userId))));
    }

    @Override
    public Uni<Void> saveUserConfiguration(long organizationId, long userId, Map<String, Object> configuration,
            Instant at) {
        return pool.preparedQuery("""
                        INSERT INTO user_model_configurations (organization_id, user_id, sealed_configuration,
                        updated_at) VALUES ($1, $2, $3, $4) ON CONFLICT (organization_id, user_id) DO UPDATE SET
                        sealed_configuration = excluded.sealed_configuration, updated_at = excluded.updated_at""")
                .execute(Tuple.of(organizationId, userId, seal(configuration, userOwner(organizationId, userId)),
                        at.atOffset(ZoneOffset.UTC))).replaceWithVoid();
    }

    private String seal(Map<String, Object> configuration, String owner) {
        return cipher.seal(JsonValues.toJson(configuration).encode(), owner);
    }

    private Map<String, Object> open(String sealed, String owner) {
        return JsonValues.toMap(new JsonObject(cipher.open(sealed, owner)));
    }

    private static String organizationOwner(long organizationId) {
        return "organization:" + organizationId + ":model-configuration";
    }

    private static String userOwner(long organizationId, long userId) {
        return "organization:" + organizationId + ":user:" + userId + ":model-configuration";
    }
}
