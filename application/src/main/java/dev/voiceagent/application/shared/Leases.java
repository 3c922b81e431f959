package dev.voiceagent.application.shared;

import io.smallrye.mutiny.Uni;
import java.util.Optional;

/**
 * Out-port: work that exactly one replica of the installation does at a time (a carrier's control connection, which
 * the carrier sends every event of an account to). A lease is held until released or until its holder is lost (its
 * process or its connection to the store gone), after which another replica can take it.
 */
public interface Leases {

    /** The lease on {@code key} if no other holder has it; empty otherwise. */
    Uni<Optional<Lease>> tryAcquire(String key);

    /** A held lease. */
    interface Lease {

        /** Whether it is still held (false once its connection to the store was lost: another may hold it now). */
        Uni<Boolean> held();

        /** Gives it up; never fails. */
        Uni<Void> release();
    }
}
