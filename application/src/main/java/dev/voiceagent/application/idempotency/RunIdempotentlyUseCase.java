package dev.voiceagent.application.idempotency;

import io.smallrye.mutiny.Uni;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs a request at most once per Idempotency-Key and organization; the first successful response
 * is stored and replayed (see {@link IdempotentRequestsService}).
 */
public interface RunIdempotentlyUseCase {

    /**
     * @param fingerprint identifies the request (operation, target and body): the same key with
     *                    another fingerprint is a reuse
     */
    <T> Uni<T> run(long organizationId, String key, String fingerprint, Function<T, String> write,
            Function<String, T> read, Supplier<Uni<T>> action);
}
