package dev.voiceagent.application.idempotency;

import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.Optional;

/** Out-port: the organization's idempotency keys and the responses stored under them. */
public interface IdempotencyRepository {

    /**
     * Claims the key for a request with this fingerprint (atomically, across replicas). A key whose
     * record expired, or that was claimed before {@code abandonedBefore} and never completed, is
     * taken over. Empty when claimed; else the record that holds the key.
     */
    Uni<Optional<Stored>> claim(long organizationId, String key, String fingerprint, Instant now, Instant expiredBefore,
            Instant abandonedBefore);

    Uni<Void> complete(long organizationId, String key, String response);

    /** Frees a claimed key whose request failed, so that a retry runs again. */
    Uni<Void> release(long organizationId, String key);

    /** Deletes the records created before {@code before}; how many. */
    Uni<Long> deleteCreatedBefore(Instant before);

    /** A key's record: {@code response} is null while the first request still runs. */
    record Stored(String fingerprint, String response) {
    }
}
