package dev.voiceagent.adapters.scheduler;

import dev.voiceagent.application.dispatch.DispatchMetrics;
import dev.voiceagent.application.campaign.FoldCampaignTalliesUseCase;
import dev.voiceagent.application.conversation.TextChatUseCases.CloseIdleTextChatsUseCase;
import dev.voiceagent.application.health.CountReplicaCallsUseCase;
import dev.voiceagent.application.workflow.CloseAbandonedRunsUseCase;
import dev.voiceagent.application.idempotency.PurgeIdempotencyKeysUseCase;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * Housekeeping in every replica (harmless when repeated): expired idempotency keys, the active-calls gauge,
 * the campaigns' tallies.
 */
@ApplicationScoped
public class MaintenanceTicks {

    private static final Logger LOG = Logger.getLogger(MaintenanceTicks.class);

    private final PurgeIdempotencyKeysUseCase idempotency;
    private final CountReplicaCallsUseCase calls;
    private final DispatchMetrics metrics;
    private final CloseIdleTextChatsUseCase idleChats;
    private final CloseAbandonedRunsUseCase abandoned;
    private final FoldCampaignTalliesUseCase tallies;

    public MaintenanceTicks(PurgeIdempotencyKeysUseCase idempotency, CountReplicaCallsUseCase calls, DispatchMetrics metrics,
            CloseIdleTextChatsUseCase idleChats, CloseAbandonedRunsUseCase abandoned, FoldCampaignTalliesUseCase tallies) {
        this.tallies = tallies;
        this.abandoned = abandoned;
        this.idempotency = idempotency;
        this.calls = calls;
        this.metrics = metrics;
        this.idleChats = idleChats;
    }

    /** Ends the text chats nobody wrote in for their workflow's inactivity timeout (any replica; writes are guarded). */
    @Scheduled(identity = "idle-text-chats", every = "${voiceagent.text-chat.idle-check-every:30s}", delayed = "10s",
            concurrentExecution = ConcurrentExecution.SKIP)
    Uni<Void> closeIdleTextChats() {
        return idleChats.closeIdle().invoke(closed -> {
            if (closed > 0) {
                LOG.infof("ended %d idle text chats", closed);
            }
        }).onFailure().invoke(f -> TickFailures.log(LOG, "idle text chat check", f))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Keeps the active-calls gauge current (this replica's live calls, from the ledger). */
    @Scheduled(identity = "active-calls-gauge", every = "${voiceagent.metrics.active-calls-every:5s}",
            concurrentExecution = ConcurrentExecution.SKIP)
    Uni<Void> activeCallsGauge() {
        return calls.thisReplicaActive().invoke(metrics::activeCalls).onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Closes the browser runs whose media never connected (any replica: one statement, rows skipped if locked). */
    @Scheduled(identity = "abandoned-runs", every = "${voiceagent.runs.abandon-check-every:60s}", delayed = "10s",
            concurrentExecution = ConcurrentExecution.SKIP)
    Uni<Void> closeAbandonedRuns() {
        return abandoned.closeAbandoned().invoke(closed -> {
            if (closed > 0) {
                LOG.infof("closed %d runs that never started", closed);
            }
        }).onFailure().invoke(f -> TickFailures.log(LOG, "abandoned run check", f))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Keeps the campaign list's counts cheap: each campaign's recent tallies folded into one (any replica). */
    @Scheduled(identity = "campaign-tallies", every = "${voiceagent.campaigns.fold-tallies-every:10s}", delayed = "5s",
            concurrentExecution = ConcurrentExecution.SKIP)
    Uni<Void> foldCampaignTallies() {
        return tallies.fold().onFailure().invoke(f -> TickFailures.log(LOG, "campaign tally fold", f))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    @Scheduled(identity = "idempotency-purge", every = "${voiceagent.idempotency.purge-every:1h}", delayed = "1m",
            concurrentExecution = ConcurrentExecution.SKIP)
    Uni<Void> purgeIdempotencyKeys() {
        return idempotency.purgeExpired().onFailure().invoke(f -> TickFailures.log(LOG, "idempotency purge", f))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
