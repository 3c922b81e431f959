package dev.voiceagent.application.health;

import io.smallrye.mutiny.Uni;
import java.time.Instant;

/** Out-port: live calls counted from the call ledger (every source, every replica). */
public interface CallCounts {

    /** Live calls of the whole fleet, calls started before {@code staleBefore} excluded. */
    Uni<Long> fleetActive(Instant staleBefore);

    /** Live calls this replica placed (what a draining replica waits for). */
    Uni<Long> thisReplicaActive(Instant staleBefore);
}
