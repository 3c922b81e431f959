package dev.voiceagent.adapters.postgres.health;

import static dev.voiceagent.adapters.postgres.shared.Timestamps.utc;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.ReplicaIdentity;
import dev.voiceagent.application.health.CallCounts;
import dev.voiceagent.application.voice.runtime.port.out.VoiceRunStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;

/**
 * Live calls: the ledger's calls in progress and the runs whose media a replica holds (voice sessions, phone or
 * browser), each run counted once: one statement over two indexes, whatever the number of replicas.
 */
@DatabaseAccess
@ApplicationScoped
public class PostgresCallCounts implements CallCounts {

    private static final String ACTIVE = "status IN ('initiated', 'ringing', 'in-progress')";
    /** A voice session's heartbeat older than this is a replica gone (VoiceRunStore.STALE). */
    private static final Duration MEDIA_STALE = VoiceRunStore.STALE;

    private final Pool pool;
    private final ReplicaIdentity replica;

    public PostgresCallCounts(Pool pool, ReplicaIdentity replica) {
        this.pool = pool;
        this.replica = replica;
    }

    @Override
    public Uni<Long> fleetActive(Instant staleBefore) {
        return pool.preparedQuery("/* background tick */ SELECT count(*) AS live FROM ("
                        + "SELECT workflow_run_id AS run FROM calls WHERE " + ACTIVE + " AND started_at > $1"
                        + " UNION SELECT id FROM workflow_runs WHERE media_owner IS NOT NULL AND media_heartbeat_at > $2"
                        + ") live").execute(Tuple.of(utc(staleBefore), utc(Instant.now().minus(MEDIA_STALE))))
                .map(rows -> rows.iterator().next().getLong("live"));
    }

    @Override
    public Uni<Long> thisReplicaActive(Instant staleBefore) {
        return pool.preparedQuery("/* background tick */ SELECT count(*) AS live FROM ("
                        + "SELECT workflow_run_id AS run FROM calls c WHERE placed_by = $1 AND " + ACTIVE
                        + " AND started_at > $2 AND NOT EXISTS (SELECT 1 FROM workflow_runs m"
                        + " WHERE m.id = c.workflow_run_id AND (m.media_moves > 0 OR m.media_owner IS NULL"
                        + " AND m.voice_checkpoint IS NOT NULL)) UNION SELECT id FROM workflow_runs WHERE media_owner = $1"
                        + " AND media_heartbeat_at > $3) live")
                .execute(Tuple.of(replica.id(), utc(staleBefore), utc(Instant.now().minus(MEDIA_STALE))))
                .map(rows -> rows.iterator().next().getLong("live"));
    }
}
