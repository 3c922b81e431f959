package dev.voiceagent.adapters.postgres.lease;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.application.shared.Leases;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * Leases as PostgreSQL session advisory locks, each on a connection of its own taken from the pool and kept while the
 * lease is held: a holder that dies (or whose connection breaks) loses its lock with its session, so another replica
 * takes the work over without waiting for an expiry. Keys are hashed into the lock space with their own seed (1), apart
 * from the transaction-scoped per-organization locks (seed 0).
 */
@DatabaseAccess
@ApplicationScoped
public class PostgresLeases implements Leases {

    private static final String TRY = "SELECT pg_try_advisory_lock(hashtextextended($1, 1)) AS taken";
    private static final String UNLOCK = "SELECT pg_advisory_unlock(hashtextextended($1, 1))";

    private final Pool pool;

    public PostgresLeases(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Optional<Lease>> tryAcquire(String key) {
        return pool.getConnection().chain(connection -> connection.preparedQuery(TRY).execute(Tuple.of(key))
                .map(rows -> rows.iterator().next().getBoolean("taken"))
                .onFailure().call(connection::close)
                .chain(taken -> taken ? Uni.createFrom().item(Optional.<Lease>of(new Held(connection, key)))
                        : connection.close().replaceWith(Optional.<Lease>empty())));
    }

    private record Held(SqlConnection connection, String key) implements Lease {

        @Override
        public Uni<Boolean> held() {
            return connection.query("SELECT 1").execute().replaceWith(true).onFailure().recoverWithItem(false);
        }

        @Override
        public Uni<Void> release() {
            return connection.preparedQuery(UNLOCK).execute(Tuple.of(key)).replaceWithVoid()
                    .onFailure().recoverWithNull()
                    .eventually(() -> connection.close().onFailure().recoverWithNull()).replaceWithVoid();
        }
    }
}
