package dev.voiceagent.adapters.scheduler;

import dev.voiceagent.application.campaign.ReconcileCallsUseCase;
import dev.voiceagent.application.campaign.DispatchCampaignsUseCase;
import dev.voiceagent.application.campaign.ImportContactsUseCase;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The dispatcher's clock, in every replica: a dispatch tick (1 s by default), a reconciliation of
 * expired call leases, and an import tick that takes over any campaign whose import is due. Ticks
 * never overlap themselves; all coordination between replicas is in PostgreSQL. {@link #stop()}
 * stops claiming new work (a draining replica); reconciliation goes on.
 */
@ApplicationScoped
public class DispatchTicks {

    private static final Logger LOG = Logger.getLogger(DispatchTicks.class);

    private final DispatchCampaignsUseCase dispatcher;
    private final ReconcileCallsUseCase reconciler;
    private final ImportContactsUseCase importer;
    private final AtomicBoolean claiming;

    public DispatchTicks(DispatchCampaignsUseCase dispatcher, ReconcileCallsUseCase reconciler,
            ImportContactsUseCase importer,
            @ConfigProperty(name = "voiceagent.dispatch.enabled", defaultValue = "true") boolean enabled) {
        this.dispatcher = dispatcher;
        this.reconciler = reconciler;
        this.importer = importer;
        this.claiming = new AtomicBoolean(enabled);
    }

    public void stop() {
        claiming.set(false);
    }

    public boolean claiming() {
        return claiming.get();
    }

    @Scheduled(identity = "campaign-dispatch", every = "${voiceagent.dispatch.tick:1s}",
            concurrentExecution = ConcurrentExecution.SKIP)
    Uni<Void> dispatch() {
        if (!claiming.get()) {
            return Uni.createFrom().voidItem();
        }
        return dispatcher.tick().onFailure().invoke(f -> TickFailures.log(LOG, "dispatch tick", f))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /**
     * Runs while the replica drains too: a call whose callbacks were lost is settled through its provider, so the
     * drain that waits for this replica's live calls is not kept waiting by a call that has in fact ended.
     */
    @Scheduled(identity = "call-reconciliation", every = "${voiceagent.dispatch.reconcile-every:5s}",
            concurrentExecution = ConcurrentExecution.SKIP)
    Uni<Void> reconcile() {
        return reconciler.reconcile().onFailure().invoke(f -> TickFailures.log(LOG, "reconciliation", f))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    @Scheduled(identity = "contact-import", every = "${voiceagent.dispatch.import-every:1s}",
            concurrentExecution = ConcurrentExecution.SKIP)
    Uni<Void> importContacts() {
        if (!claiming.get()) {
            return Uni.createFrom().voidItem();
        }
        return importer.importNext().onFailure().invoke(f -> TickFailures.log(LOG, "contact import", f))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
