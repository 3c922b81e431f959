package dev.voiceagent.application.health;

import io.smallrye.mutiny.Uni;

/** Live calls this replica placed: what a draining replica waits for, and the active-calls gauge. */
public interface CountReplicaCallsUseCase {

    Uni<Long> thisReplicaActive();
}
