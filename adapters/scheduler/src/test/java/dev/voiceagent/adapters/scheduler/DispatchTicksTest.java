package dev.voiceagent.adapters.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.campaign.ReconcileCallsUseCase;
import dev.voiceagent.application.campaign.DispatchCampaignsUseCase;
import dev.voiceagent.application.campaign.ImportContactsUseCase;
import io.smallrye.mutiny.Uni;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class DispatchTicksTest {

    private final AtomicInteger dispatched = new AtomicInteger();
    private final AtomicInteger reconciled = new AtomicInteger();
    private final AtomicInteger imported = new AtomicInteger();

    private final DispatchCampaignsUseCase dispatcher = new DispatchCampaignsUseCase() {
        @Override
        public Uni<Integer> tick() {
            dispatched.incrementAndGet();
            return Uni.createFrom().item(0);
        }

        @Override
        public void stopClaiming() {
        }

        @Override
        public void slotFreed(long organizationId) {
        }
    };
    private final ReconcileCallsUseCase reconciler = () -> {
        reconciled.incrementAndGet();
        return Uni.createFrom().item(0);
    };
    private final ImportContactsUseCase importer = () -> {
        imported.incrementAndGet();
        return Uni.createFrom().item(false);
    };

    @Test
    void aDrainingReplicaStopsClaimingWorkButKeepsSettlingCallsWhoseCallbacksWereLost() {
        DispatchTicks ticks = new DispatchTicks(dispatcher, reconciler, importer, true);
        ticks.dispatch().await().indefinitely();
        ticks.reconcile().await().indefinitely();
        ticks.importContacts().await().indefinitely();
        ticks.stop();
        ticks.dispatch().await().indefinitely();
        ticks.reconcile().await().indefinitely();
        ticks.importContacts().await().indefinitely();
        assertThat(dispatched).hasValue(1);
        assertThat(imported).hasValue(1);
        assertThat(reconciled).hasValue(2);
    }
}
