package dev.voiceagent.application.campaign;

import dev.voiceagent.application.dispatch.SlotListener;
import io.smallrye.mutiny.Uni;

/**
 * One dispatcher tick: complete, trip, claim and dial, for every organization with running
 * campaigns; and, between ticks, an organization's freed slot filled at once.
 */
public interface DispatchCampaignsUseCase extends SlotListener {

    /** The number of calls placed (or attempted) by this tick. */
    Uni<Integer> tick();

    /** Stops claiming contacts in this replica (it is draining); calls already placed go on. */
    void stopClaiming();
}
