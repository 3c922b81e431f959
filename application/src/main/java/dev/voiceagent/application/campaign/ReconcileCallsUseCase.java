package dev.voiceagent.application.campaign;

import io.smallrye.mutiny.Uni;

/** Settles calls whose lease expired without a final outcome (a replica died, a report was lost). */
public interface ReconcileCallsUseCase {

    /** The number of expired attempts looked at. */
    Uni<Integer> reconcile();
}
