package dev.voiceagent.application.idempotency;

import io.smallrye.mutiny.Uni;

/** Forgets the idempotency records past their 24 hours; returns how many went. */
public interface PurgeIdempotencyKeysUseCase {

    Uni<Long> purgeExpired();
}
