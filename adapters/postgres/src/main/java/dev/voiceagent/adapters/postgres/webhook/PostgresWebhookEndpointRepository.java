package dev.voiceagent.adapters.postgres.webhook;

import static dev.voiceagent.adapters.postgres.shared.Columns.index;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.instant;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.utc;

import dev.voiceagent.adapters.postgres.shared.CredentialCipher;
import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.application.webhook.WebhookEndpointRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Endpoints with their secrets sealed (bound to the organization); deliveries listed with their attempts. */
@DatabaseAccess
@ApplicationScoped
public class PostgresWebhookEndpointRepository implements WebhookEndpointRepository {

    static final String COLUMNS = "id, organization_id, url, description, event_types, enabled,"
            + " previous_secret_expires_at, created_at, updated_at";
    private static final int ID = index(COLUMNS, "id");
    private static final int ORGANIZATION_ID = index(COLUMNS, "organization_id");
    private static final int URL = index(COLUMNS, "url");
    private static final int DESCRIPTION = index(COLUMNS, "description");
    private static final int EVENT_TYPES = index(COLUMNS, "event_types");
    private static final int ENABLED = index(COLUMNS, "enabled");
    private static final int PREVIOUS_SECRET_EXPIRES_AT = index(COLUMNS, "previous_secret_expires_at");
    private static final int CREATED_AT = index(COLUMNS, "created_at");
    private static final int UPDATED_AT = index(COLUMNS, "updated_at");

    private final Pool pool;
    private final CredentialCipher cipher;

    public PostgresWebhookEndpointRepository(Pool pool, CredentialCipher cipher) {
        this.pool = pool;
        this.cipher = cipher;
    }

    static String owner(long organizationId) {
        return "webhook:" + organizationId;
    }

    @Override
    public Uni<Endpoint> create(long organizationId, String url, String description, List<String> eventTypes,
            boolean enabled, String secret) {
        return pool.preparedQuery("""
                        INSERT INTO webhook_endpoints (organization_id, url, description, event_types,
                        enabled, secret) VALUES ($1, $2, $3, $4, $5, $6) RETURNING\s""" + COLUMNS)
                .execute(Tuple.of(organizationId, url, description, eventTypes.toArray(String[]::new), enabled,
                        cipher.seal(secret, owner(organizationId))))
                .map(rows -> endpoint(rows.iterator().next()));
    }

    @Override
    public Uni<List<Endpoint>> list(long organizationId) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM webhook_endpoints WHERE organization_id = $1 ORDER BY id")
                .execute(Tuple.of(organizationId)).map(rows -> {
                    List<Endpoint> out = new ArrayList<>();
                    rows.forEach(r -> out.add(endpoint(r)));
                    return out;
                });
    }

    @Override
    public Uni<Optional<Endpoint>> find(long organizationId, long id) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM webhook_endpoints WHERE organization_id = $1 AND id = $2")
                .execute(Tuple.of(organizationId, id))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(endpoint(rows.iterator().next())));
    }

    @Override
    public Uni<Optional<Endpoint>> update(long organizationId, long id, String url, String description,
            List<String> eventTypes, Boolean enabled) {
        return pool.preparedQuery("""
                        UPDATE webhook_endpoints SET url = COALESCE($3, url), description = CASE WHEN $7
                        THEN $4 ELSE description END, event_types = COALESCE($5, event_types),
                        enabled = COALESCE($6, enabled), updated_at = now() WHERE organization_id = $1 AND id = $2
                        RETURNING\s""" + COLUMNS)
                .execute(Tuple.tuple().addLong(organizationId).addLong(id).addString(url).addString(description)
                        .addArrayOfString(eventTypes == null ? null : eventTypes.toArray(String[]::new))
                        .addBoolean(enabled).addBoolean(description != null))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(endpoint(rows.iterator().next())));
    }

    @Override
    public Uni<Boolean> delete(long organizationId, long id) {
        return pool.preparedQuery("DELETE FROM webhook_endpoints WHERE organization_id = $1 AND id = $2")
                .execute(Tuple.of(organizationId, id)).map(rows -> rows.rowCount() > 0);
    }

    @Override
    public Uni<Optional<Endpoint>> rotate(long organizationId, long id, String secret, Instant previousUntil) {
        return pool.preparedQuery("""
                        UPDATE webhook_endpoints SET previous_secret = secret, secret = $3,
                        previous_secret_expires_at = $4, updated_at = now() WHERE organization_id = $1 AND id = $2
                        RETURNING\s""" + COLUMNS)
                .execute(Tuple.of(organizationId, id, cipher.seal(secret, owner(organizationId)), utc(previousUntil)))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(endpoint(rows.iterator().next())));
    }

    /** One statement: the newest deliveries, each with its attempts as a JSON array. */
    @Override
    public Uni<List<Delivery>> deliveries(long organizationId, long endpointId, int limit) {
        return pool.preparedQuery("""
                        SELECT d.id, d.message_id, d.event_type, d.state, d.attempts, d.next_attempt_at, d.created_at,
                               d.finished_at,
                               COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'status', a.status,
                                            'error', a.error, 'duration_ms', a.duration_ms,
                                            'response_excerpt', a.response_excerpt,
                                            'attempted_at', a.attempted_at) ORDER BY a.attempt)
                                           FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]'::json) AS attempt_log
                          FROM webhook_deliveries d
                         WHERE d.organization_id = $1 AND d.endpoint_id = $2 ORDER BY d.id DESC LIMIT $3""")
                .execute(Tuple.of(organizationId, endpointId, limit)).map(rows -> {
                    List<Delivery> out = new ArrayList<>();
                    for (Row r : rows) {
                        List<Attempt> attempts = new ArrayList<>();
                        Object json = r.getValue("attempt_log");
                        JsonArray array = json instanceof JsonArray a ? a : new JsonArray(String.valueOf(json));
                        for (int i = 0; i < array.size(); i++) {
                            JsonObject a = array.getJsonObject(i);
                            attempts.add(new Attempt(a.getInteger("attempt"), a.getInteger("status"),
                                    a.getString("error"), a.getLong("duration_ms"), a.getString("response_excerpt"),
                                    OffsetDateTime.parse(a.getString("attempted_at")).toInstant()));
                        }
                        out.add(new Delivery(r.getLong("id"), r.getString("message_id"), r.getString("event_type"),
                                r.getString("state"), r.getInteger("attempts"), instant(r.getOffsetDateTime("next_attempt_at")),
                                instant(r.getOffsetDateTime("created_at")), instant(r.getOffsetDateTime("finished_at")),
                                attempts));
                    }
                    return out;
                });
    }

    @Override
    public Uni<Boolean> redeliver(long organizationId, long endpointId, long deliveryId, Instant now) {
        return pool.preparedQuery("""
                        UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = $4,
                        finished_at = NULL, lease_owner = NULL, lease_until = NULL
                        WHERE organization_id = $1 AND endpoint_id = $2 AND id = $3""")
                .execute(Tuple.of(organizationId, endpointId, deliveryId, utc(now))).map(rows -> rows.rowCount() > 0);
    }

    private static Endpoint endpoint(Row r) {
        return new Endpoint(r.getLong(ID), r.getLong(ORGANIZATION_ID), r.getString(URL), r.getString(DESCRIPTION),
                Arrays.asList(r.getArrayOfStrings(EVENT_TYPES)), Boolean.TRUE.equals(r.getBoolean(ENABLED)),
                instant(r.getOffsetDateTime(PREVIOUS_SECRET_EXPIRES_AT)), instant(r.getOffsetDateTime(CREATED_AT)), instant(r.getOffsetDateTime(UPDATED_AT)));
    }
}
