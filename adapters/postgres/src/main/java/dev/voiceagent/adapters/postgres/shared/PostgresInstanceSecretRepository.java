package dev.voiceagent.adapters.postgres.shared;

import dev.voiceagent.application.shared.InstanceSecretRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.Map;

@DatabaseAccess
@ApplicationScoped
public class PostgresInstanceSecretRepository implements InstanceSecretRepository {

    private final Pool pool;

    public PostgresInstanceSecretRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Map<String, String>> getOrCreateAll(Map<String, String> candidates) {
        String[] names = candidates.keySet().toArray(String[]::new);
        String[] values = new String[names.length];
        for (int i = 0; i < names.length; i++) {
            values[i] = candidates.get(names[i]);
        }
        // Insert-if-absent then read, two statements for every key: concurrent first starts agree on one value.
        return pool.preparedQuery("""
                        INSERT INTO instance_secrets (name, value) SELECT * FROM unnest($1::text[], $2::text[])
                        ON CONFLICT (name) DO NOTHING""").execute(Tuple.of(names, values))
                .chain(() -> pool.preparedQuery("SELECT name, value FROM instance_secrets WHERE name = ANY($1)")
                        .execute(Tuple.of((Object) names)))
                .map(rows -> {
                    Map<String, String> stored = new HashMap<>();
                    for (Row row : rows) {
                        stored.put(row.getString("name"), row.getString("value"));
                    }
                    return stored;
                });
    }
}
