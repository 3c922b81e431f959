package dev.voiceagent.adapters.scheduler;

import dev.voiceagent.application.idempotency.IdempotentRequests;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/** Housekeeping in every replica (idempotent, so running it twice is harmless): expired idempotency keys. */
@ApplicationScoped
public class MaintenanceTicks {

    private static final Logger LOG = Logger.getLogger(MaintenanceTicks.class);

    private final IdempotentRequests idempotency;

    public MaintenanceTicks(IdempotentRequests idempotency) {
        this.idempotency = idempotency;
    }

    @Scheduled(identity = "idempotency-purge", every = "${voiceagent.idempotency.purge-every:1h}", delayed = "1m",
            concurrentExecution = ConcurrentExecution.SKIP)
    Uni<Void> purgeIdempotencyKeys() {
        return idempotency.purgeExpired().onFailure().invoke(f -> LOG.warnf("idempotency purge failed: %s", f.toString()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
