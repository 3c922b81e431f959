package dev.voiceagent.adapters.postgres.health;

import static dev.voiceagent.adapters.postgres.shared.Timestamps.utc;

import dev.voiceagent.adapters.postgres.shared.ReplicaIdentity;
import dev.voiceagent.application.health.CallCounts;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/** Live calls from the ledger: one indexed count, whatever the number of replicas. */
@ApplicationScoped
public class PostgresCallCounts implements CallCounts {

    private static final String ACTIVE = "status IN ('initiated', 'ringing', 'in-progress')";

    private final Pool pool;
    private final ReplicaIdentity replica;

    public PostgresCallCounts(Pool pool, ReplicaIdentity replica) {
        this.pool = pool;
        this.replica = replica;
    }

    @Override
    public Uni<Long> fleetActive(Instant staleBefore) {
        return pool.preparedQuery("/* background tick */ SELECT count(*) AS live FROM calls WHERE " + ACTIVE
                        + " AND started_at > $1").execute(Tuple.of(utc(staleBefore)))
                .map(rows -> rows.iterator().next().getLong("live"));
    }

    @Override
    public Uni<Long> thisReplicaActive(Instant staleBefore) {
        return pool.preparedQuery("/* background tick */ SELECT count(*) AS live FROM calls WHERE placed_by = $1 AND "
                        + ACTIVE + " AND started_at > $2").execute(Tuple.of(replica.id(), utc(staleBefore)))
                .map(rows -> rows.iterator().next().getLong("live"));
    }
}
