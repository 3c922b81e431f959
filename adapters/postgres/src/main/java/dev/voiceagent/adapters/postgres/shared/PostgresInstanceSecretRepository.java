package dev.voiceagent.adapters.postgres.shared;

import dev.voiceagent.application.shared.InstanceSecretRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.Supplier;

@ApplicationScoped
public class PostgresInstanceSecretRepository implements InstanceSecretRepository {

    private final Pool pool;

    public PostgresInstanceSecretRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<String> getOrCreate(String name, Supplier<String> generator) {
        // Insert-if-absent then read: concurrent first starts of several replicas agree on one value.
        return pool.preparedQuery("INSERT INTO instance_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
                .execute(Tuple.of(name, generator.get()))
                .chain(() -> pool.preparedQuery("SELECT value FROM instance_secrets WHERE name = $1").execute(Tuple.of(name)))
                .map(rows -> rows.iterator().next().getString("value"));
    }
}
