package dev.voiceagent.adapters.postgres.ratelimit;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.application.ratelimit.RateLimitStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * A lease in one statement: the bucket row is locked, refilled for the time since it was touched (the database's
 * clock, so replicas' clocks do not matter), capped at the burst, and the granted tokens taken. A key's first
 * lease may race another replica's and both start from a full bucket: at most one burst more, once per key.
 */
@DatabaseAccess
@ApplicationScoped
public class PostgresRateLimitStore implements RateLimitStore {

    private static final String LEASE = """
            WITH cfg AS (
                SELECT COALESCE(o.rate_limit_per_second, $3) AS rate, COALESCE(o.rate_limit_burst, $4) AS burst
                  FROM (SELECT $2::bigint AS id) k LEFT JOIN organizations o ON o.id = k.id),
            cur AS (
                SELECT tokens, updated_at FROM rate_limit_buckets WHERE key_id = $1 FOR UPDATE),
            calc AS (
                SELECT cfg.rate, cfg.burst,
                       LEAST(cfg.burst::float8, COALESCE(cur.tokens + cfg.rate
                           * GREATEST(0, extract(epoch FROM clock_timestamp() - cur.updated_at)), cfg.burst)) AS available
                  FROM cfg LEFT JOIN cur ON true),
            taken AS (
                SELECT rate, burst, available, LEAST(floor(available), $5)::int AS granted FROM calc),
            saved AS (
                INSERT INTO rate_limit_buckets (key_id, tokens, updated_at)
                SELECT $1, available - granted, clock_timestamp() FROM taken
                ON CONFLICT (key_id) DO UPDATE SET tokens = EXCLUDED.tokens, updated_at = EXCLUDED.updated_at)
            SELECT granted, available - granted AS remaining, rate, burst FROM taken""";

    private final Pool pool;

    public PostgresRateLimitStore(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Lease> lease(String keyId, long organizationId, double defaultPerSecond, int defaultBurst, int want) {
        return pool.preparedQuery(LEASE)
                .execute(Tuple.of(keyId, organizationId, defaultPerSecond, defaultBurst, want)).map(rows -> {
                    Row r = rows.iterator().next();
                    return new Lease(r.getInteger("granted"), r.getDouble("remaining"), r.getDouble("rate"),
                            r.getInteger("burst"));
                });
    }
}
