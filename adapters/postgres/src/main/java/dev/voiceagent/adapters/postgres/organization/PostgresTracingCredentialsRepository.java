package dev.voiceagent.adapters.postgres.organization;

import dev.voiceagent.adapters.postgres.shared.CredentialCipher;
import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.application.organization.TracingCredentialsRepository;
import dev.voiceagent.domain.account.TracingCredentials;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/** Tracing credentials sealed whole, bound to their organization. */
@DatabaseAccess
@ApplicationScoped
public class PostgresTracingCredentialsRepository implements TracingCredentialsRepository {

    private final Pool pool;
    private final CredentialCipher cipher;

    public PostgresTracingCredentialsRepository(Pool pool, CredentialCipher cipher) {
        this.pool = pool;
        this.cipher = cipher;
    }

    @Override
    public Uni<Optional<TracingCredentials>> find(long organizationId) {
        return pool.preparedQuery("SELECT provider, sealed_credentials FROM tracing_credentials WHERE organization_id = $1")
                .execute(Tuple.of(organizationId)).map(rows -> {
                    if (rows.size() == 0) {
                        return Optional.empty();
                    }
                    var row = rows.iterator().next();
                    JsonObject c = new JsonObject(cipher.open(row.getString("sealed_credentials"), owner(organizationId)));
                    return Optional.of(new TracingCredentials(row.getString("provider"), c.getString("host"),
                            c.getString("public_key"), c.getString("secret_key"), c.getString("project_id")));
                });
    }

    @Override
    public Uni<Void> save(long organizationId, TracingCredentials credentials) {
        String sealed = cipher.seal(new JsonObject().put("host", credentials.host())
                .put("public_key", credentials.publicKey()).put("secret_key", credentials.secretKey())
                .put("project_id", credentials.projectId()).encode(), owner(organizationId));
        return pool.preparedQuery("""
                        INSERT INTO tracing_credentials (organization_id, provider, sealed_credentials)
                        VALUES ($1, $2, $3) ON CONFLICT (organization_id) DO UPDATE SET provider = excluded.provider,
                        sealed_credentials = excluded.sealed_credentials, updated_at = now()""")
                .execute(Tuple.of(organizationId, credentials.provider(), sealed)).replaceWithVoid();
    }

    @Override
    public Uni<Boolean> delete(long organizationId) {
        return pool.preparedQuery("DELETE FROM tracing_credentials WHERE organization_id = $1")
                .execute(Tuple.of(organizationId)).map(rows -> rows.rowCount() > 0);
    }

    private static String owner(long organizationId) {
        return "organization:" + organizationId + ":tracing";
    }
}
