package dev.voiceagent.adapters.postgres.webhook;

import static dev.voiceagent.adapters.postgres.shared.Columns.index;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.utc;

import dev.voiceagent.adapters.postgres.shared.CredentialCipher;
import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.application.voice.runtime.port.out.VoiceRunStore;
import dev.voiceagent.application.webhook.WebhookOutbox;
import dev.voiceagent.domain.webhook.WebhookEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outbox: {@link #enqueue} writes a delivery per subscribed, enabled endpoint inside the caller's transaction
 * (so an event exists exactly when its change committed); any replica claims due ones under a lease.
 */
@DatabaseAccess
@ApplicationScoped
public class PostgresWebhookOutbox implements WebhookOutbox {

    private final Pool pool;
    private final CredentialCipher cipher;

    public PostgresWebhookOutbox(Pool pool, CredentialCipher cipher) {
        this.pool = pool;
        this.cipher = cipher;
    }

    /**
     * Within the caller's transaction, the events the core decided: each one for every enabled endpoint of the
     * organization subscribed to its type (an endpoint with no types receives every type), as the body
     * {"type", "timestamp", "data"}; and a run's completion also for each webhook node it triggers. One batch per
     * kind of row, so the cost does not grow in round trips with the number of events.
     */
    public static Uni<Void> enqueue(SqlClient tx, long organizationId, List<WebhookEvent> events) {
        if (events.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Tuple> nodes = new ArrayList<>();
        for (WebhookEvent event : events) {
            if (event instanceof WebhookEvent.RunCompleted completed) {
                completed.qaNodeIds().forEach(node -> nodes.add(Tuple.of(organizationId, completed.run().id(), node,
                        WebhookOutbox.QA_REVIEW)));
                completed.webhookNodeIds().forEach(node -> nodes.add(Tuple.of(organizationId, completed.run().id(),
                        node, WebhookOutbox.WEBHOOK_NODE)));
            }
        }
        Uni<Void> subscribed = tx.preparedQuery(ENQUEUE).executeBatch(events.stream()
                .map(e -> enqueueTuple(organizationId, e)).toList()).replaceWithVoid();
        return nodes.isEmpty() ? subscribed : subscribed.chain(() -> tx.preparedQuery(ENQUEUE_NODE)
                .executeBatch(nodes).replaceWithVoid());
    }

    /** $4: the run of a run.completed, whose links are added at delivery (see RunLinks); else null. */
    private static final String ENQUEUE = """
            INSERT INTO webhook_deliveries (organization_id, endpoint_id, message_id, event_type, payload,
                                            next_attempt_at, workflow_run_id)
            SELECT $1, e.id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), $2, $3, now(), $4::bigint
              FROM webhook_endpoints e
             WHERE e.organization_id = $1 AND e.enabled AND (cardinality(e.event_types) = 0 OR $2 = ANY(e.event_types))""";

    /**
     * A workflow's node run after its run completed: a webhook node, delivered by the node's own request (see
     * NodeWebhookDelivery), or a QA node's review of the call.
     */
    private static final String ENQUEUE_NODE = """
            INSERT INTO webhook_deliveries (organization_id, message_id, event_type, payload, workflow_run_id, node_id)
            VALUES ($1, 'msg_' || replace(gen_random_uuid()::text, '-', ''), $4, '{}'::jsonb, $2, $3)""";

    /** The event {"type", "timestamp", "data"}. */
    private static Tuple enqueueTuple(long organizationId, WebhookEvent event) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("type", event.type());
        payload.put("timestamp", event.at().toString());
        payload.put("data", event.data());
        Long runId = event instanceof WebhookEvent.RunCompleted completed ? completed.run().id() : null;
        return Tuple.of(organizationId, event.type(), JsonValues.toJson(payload), runId);
    }

    /** What a claim returns of a delivery, in order; the reader's indexes are derived from it. */
    private static final String PREVIOUS_SECRET_WHILE_VALID =
            "CASE WHEN e.previous_secret_expires_at > $2 THEN e.previous_secret END";
    private static final String CLAIMED = "c.id, c.organization_id, e.url, c.message_id, c.event_type, c.body, c.attempts,"
            + " e.secret, " + PREVIOUS_SECRET_WHILE_VALID + ", c.workflow_run_id, c.node_id";
    private static final int ID = index(CLAIMED, "c.id");
    private static final int ORGANIZATION_ID = index(CLAIMED, "c.organization_id");
    private static final int URL = index(CLAIMED, "e.url");
    private static final int MESSAGE_ID = index(CLAIMED, "c.message_id");
    private static final int EVENT_TYPE = index(CLAIMED, "c.event_type");
    private static final int BODY = index(CLAIMED, "c.body");
    private static final int ATTEMPTS = index(CLAIMED, "c.attempts");
    private static final int SECRET = index(CLAIMED, "e.secret");
    private static final int PREVIOUS_SECRET = index(CLAIMED, PREVIOUS_SECRET_WHILE_VALID);
    private static final int RUN_ID = index(CLAIMED, "c.workflow_run_id");
    private static final int NODE_ID = index(CLAIMED, "c.node_id");

    /**
     * Due deliveries, under a lease. A run's completion (run.completed, a webhook node, a QA review) is held while a
     * call's media session still holds its run (its heartbeat fresh): the carrier's final report may complete the run
     * before the session has stored the recording and transcript that the delivery names, and the session lets go of
     * the run when it has. The run's run.completed and webhook nodes are also held while a QA review of the run is
     * pending, so that they carry its annotations.
     */
    @Override
    public Uni<List<Due>> claim(String owner, Instant now, Duration lease, int limit) {
        return pool.preparedQuery("""
                        /* background tick */ WITH claimed AS (
                            UPDATE webhook_deliveries d SET lease_owner = $1, lease_until = $3, attempts = attempts + 1
                             WHERE d.id IN (SELECT w.id FROM webhook_deliveries w
                                             WHERE w.state = 'pending' AND w.next_attempt_at <= $2
                                               AND (w.lease_until IS NULL OR w.lease_until < $2)
                                               AND NOT EXISTS (SELECT 1 FROM workflow_runs r
                                                                WHERE r.id = w.workflow_run_id
                                                                  AND r.organization_id = w.organization_id
                                                                  AND r.media_owner IS NOT NULL
                                                                  AND r.media_heartbeat_at > $5)
                                               AND (w.event_type = '%2$s' OR w.workflow_run_id IS NULL
                                                    OR NOT EXISTS (SELECT 1 FROM webhook_deliveries q
                                                                    WHERE q.workflow_run_id = w.workflow_run_id
                                                                      AND q.event_type = '%2$s'
                                                                      AND q.state = 'pending'))
                                             ORDER BY w.next_attempt_at LIMIT $4 FOR UPDATE OF w SKIP LOCKED)
                            RETURNING d.id, d.organization_id, d.endpoint_id, d.message_id, d.event_type,
                                      d.payload::text AS body, d.attempts, d.workflow_run_id, d.node_id)
                        SELECT %1$s
                          FROM claimed c LEFT JOIN webhook_endpoints e ON e.id = c.endpoint_id"""
                        .formatted(CLAIMED, WebhookOutbox.QA_REVIEW))
                .execute(Tuple.of(owner, utc(now), utc(now.plus(lease)), limit, utc(now.minus(VoiceRunStore.STALE))))
                .map(rows -> {
                    List<Due> due = new ArrayList<>();
                    for (Row r : rows) {
                        long org = r.getLong(ORGANIZATION_ID);
                        List<String> secrets = new ArrayList<>();
                        for (int i : new int[] {SECRET, PREVIOUS_SECRET}) {
                            if (r.getString(i) != null) {
                                secrets.add(cipher.open(r.getString(i), PostgresWebhookEndpointRepository.owner(org)));
                            }
                        }
                        due.add(new Due(r.getLong(ID), org, r.getString(URL), r.getString(MESSAGE_ID),
                                r.getString(EVENT_TYPE), r.getString(BODY), r.getInteger(ATTEMPTS), secrets,
                                r.getLong(RUN_ID), r.getString(NODE_ID)));
                    }
                    return due;
                });
    }

    /** The stored event with {@code data} merged into its "data" (jsonb's own text, as every delivery is sent). */
    @Override
    public Uni<String> bodyWith(long deliveryId, Map<String, Object> data) {
        return pool.preparedQuery("""
                        /* background tick */ SELECT jsonb_set(payload, '{data}',
                                                         COALESCE(payload -> 'data', '{}'::jsonb) || $2::jsonb)::text
                          FROM webhook_deliveries WHERE id = $1""")
                .execute(Tuple.of(deliveryId, JsonValues.toJson(data))).map(rows -> {
                    if (rows.size() == 0) {
                        throw new IllegalStateException("webhook delivery " + deliveryId + " is gone");
                    }
                    return rows.iterator().next().getString(0);
                });
    }

    @Override
    public Uni<Boolean> settle(long deliveryId, String owner, AttemptRecord a, boolean delivered, Instant next) {
        String state = delivered ? "delivered" : next == null ? "dead" : "pending";
        return pool.withTransaction(tx -> tx.preparedQuery("""
                        /* background tick */ UPDATE webhook_deliveries
                        SET state = $3, next_attempt_at = COALESCE($4, next_attempt_at), lease_owner = NULL,
                        lease_until = NULL, finished_at = CASE WHEN $3 = 'pending' THEN NULL ELSE $5::timestamptz END
                        WHERE id = $1 AND lease_owner = $2 AND attempts = $6""")
                .execute(Tuple.tuple().addLong(deliveryId).addString(owner).addString(state)
                        .addOffsetDateTime(utc(next)).addOffsetDateTime(utc(a.attemptedAt())).addInteger(a.attempt()))
                .chain(updated -> updated.rowCount() == 0 ? Uni.createFrom().item(false)
                        : tx.preparedQuery("""
                                        /* background tick */ INSERT INTO webhook_attempts (delivery_id, attempt,
                                        status, error, duration_ms, response_excerpt, attempted_at)
                                        VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING""")
                                .execute(Tuple.tuple().addLong(deliveryId).addInteger(a.attempt())
                                        .addInteger(a.status()).addString(a.error()).addLong(a.durationMs())
                                        .addString(a.responseExcerpt()).addOffsetDateTime(utc(a.attemptedAt())))
                                .replaceWith(true)));
    }
}
