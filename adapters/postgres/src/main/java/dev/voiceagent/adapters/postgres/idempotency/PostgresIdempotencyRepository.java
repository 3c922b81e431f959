package dev.voiceagent.adapters.postgres.idempotency;

import static dev.voiceagent.adapters.postgres.shared.Timestamps.utc;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.application.idempotency.IdempotencyRepository;
import dev.voiceagent.application.shared.ConflictException;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;

/**
 * Idempotency keys in PostgreSQL. A claim is one INSERT .. ON CONFLICT that takes the key when it is
 * free, expired or abandoned, so two replicas racing for one key cannot both win.
 */
@DatabaseAccess
@ApplicationScoped
public class PostgresIdempotencyRepository implements IdempotencyRepository {

    private static final int ATTEMPTS = 3;

    private final Pool pool;

    public PostgresIdempotencyRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Optional<Stored>> claim(long organizationId, String key, String fingerprint, Instant now,
            Instant expiredBefore, Instant abandonedBefore) {
        return claim(organizationId, key, fingerprint, now, expiredBefore, abandonedBefore, ATTEMPTS);
    }

    private Uni<Optional<Stored>> claim(long org, String key, String fingerprint, Instant now, Instant expiredBefore,
            Instant abandonedBefore, int attemptsLeft) {
        return pool.preparedQuery("""
                        INSERT INTO idempotency_keys (organization_id, key, fingerprint, created_at) VALUES ($1, $2,
                        $3, $4)
                        ON CONFLICT (organization_id, key) DO UPDATE
                           SET fingerprint = EXCLUDED.fingerprint, response = NULL, created_at = EXCLUDED.created_at
                         WHERE idempotency_keys.created_at < $5
                            OR (idempotency_keys.response IS NULL AND idempotency_keys.created_at < $6)
                        RETURNING 1""")
                .execute(Tuple.of(org, key, fingerprint, utc(now), utc(expiredBefore), utc(abandonedBefore)))
                .chain(claimed -> claimed.size() > 0 ? Uni.createFrom().item(Optional.<Stored>empty())
                        : pool.preparedQuery("""
                                        SELECT fingerprint, response FROM idempotency_keys
                                        WHERE organization_id = $1 AND key = $2""").execute(Tuple.of(org, key))
                                .chain(rows -> {
                                    if (rows.size() > 0) {
                                        var row = rows.iterator().next();
                                        return Uni.createFrom().item(Optional.of(new Stored(row.getString("fingerprint"),
                                                row.getString("response"))));
                                    }
                                    if (attemptsLeft <= 1) { // released between the two statements, again and again
                                        return Uni.createFrom().failure(new ConflictException(
                                                "A request with this Idempotency-Key is still in progress"));
                                    }
                                    return claim(org, key, fingerprint, now, expiredBefore, abandonedBefore,
                                            attemptsLeft - 1);
                                }));
    }

    @Override
    public Uni<Void> complete(long organizationId, String key, String response) {
        return pool.preparedQuery("UPDATE idempotency_keys SET response = $3 WHERE organization_id = $1 AND key = $2")
                .execute(Tuple.of(organizationId, key, response)).replaceWithVoid();
    }

    @Override
    public Uni<Long> deleteCreatedBefore(Instant before) {
        return pool.preparedQuery("/* background tick */ DELETE FROM idempotency_keys WHERE created_at < $1")
                .execute(Tuple.of(utc(before))).map(rows -> (long) rows.rowCount());
    }

    @Override
    public Uni<Void> release(long organizationId, String key) {
        return pool.preparedQuery("""
                        DELETE FROM idempotency_keys WHERE organization_id = $1 AND key = $2
                        AND response IS NULL""")
                .execute(Tuple.of(organizationId, key)).replaceWithVoid();
    }
}
