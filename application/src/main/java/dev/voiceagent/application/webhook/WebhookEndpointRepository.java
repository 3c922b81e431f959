package dev.voiceagent.application.webhook;

import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Out-port: an organization's webhook endpoints (secrets sealed at rest) and their deliveries. */
public interface WebhookEndpointRepository {

    record Endpoint(long id, long organizationId, String url, String description, List<String> eventTypes,
            boolean enabled, Instant previousSecretExpiresAt, Instant createdAt, Instant updatedAt) {
    }

    record Attempt(int attempt, Integer status, String error, long durationMs, String responseExcerpt,
            Instant attemptedAt) {
    }

    record Delivery(long id, String messageId, String eventType, String state, int attempts, Instant nextAttemptAt,
            Instant createdAt, Instant finishedAt, List<Attempt> attemptLog) {
    }

    Uni<Endpoint> create(long organizationId, String url, String description, List<String> eventTypes,
            boolean enabled, String secret);

    Uni<List<Endpoint>> list(long organizationId);

    Uni<Optional<Endpoint>> find(long organizationId, long id);

    /** Null arguments keep what is stored. */
    Uni<Optional<Endpoint>> update(long organizationId, long id, String url, String description,
            List<String> eventTypes, Boolean enabled);

    Uni<Boolean> delete(long organizationId, long id);

    /** The new secret signs from now on; the current one also signs until {@code previousUntil}. */
    Uni<Optional<Endpoint>> rotate(long organizationId, long id, String secret, Instant previousUntil);

    /** Newest first, each with its attempts. */
    Uni<List<Delivery>> deliveries(long organizationId, long endpointId, int limit);

    /** The delivery goes back to pending, due now, its attempts kept; false when there is no such delivery. */
    Uni<Boolean> redeliver(long organizationId, long endpointId, long deliveryId, Instant now);
}
