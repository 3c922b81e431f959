package dev.voiceagent.domain.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CampaignProgressTest {

    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    private static Campaign created() {
        return Campaign.create(1, 2, "Reminders", 3, null, "campaigns/1/x.csv", null, 4, null, null, T0).withId(9);
    }

    @Test
    void theSourceSyncFollowsTheLifecycle() {
        Campaign created = created();
        CampaignProgress before = CampaignProgress.of(created, 0, 0, 4);
        assertThat(before.sourceSync()).isEqualTo(new CampaignProgress.SourceSync("pending", null, null));
        assertThat(before.totalRows()).isZero();
        assertThat(before.progressPercentage()).isZero();

        Campaign syncing = created.start(T0.plusSeconds(1)).campaign();
        assertThat(CampaignProgress.of(syncing, 0, 0, 4).sourceSync().status()).isEqualTo("in_progress");
        // a pause during the import leaves it in progress
        Campaign paused = syncing.pause(T0.plusSeconds(2), null).campaign();
        assertThat(CampaignProgress.of(paused, 0, 0, 4).sourceSync().status()).isEqualTo("in_progress");

        Campaign loaded = paused.contactsLoaded(3, T0.plusSeconds(3)).campaign();
        CampaignProgress progress = CampaignProgress.of(loaded.resume(T0.plusSeconds(4)).campaign(), 2, 1, 4);
        assertThat(progress.sourceSync()).isEqualTo(new CampaignProgress.SourceSync("completed", T0.plusSeconds(3), null));
        assertThat(progress.state()).isEqualTo(CampaignState.RUNNING);
        assertThat(progress.totalRows()).isEqualTo(3);
        assertThat(progress.processedRows()).isEqualTo(2);
        assertThat(progress.failedCalls()).isEqualTo(1);
        assertThat(progress.progressPercentage()).isEqualTo(66.67);
        assertThat(progress.startedAt()).isEqualTo(T0.plusSeconds(1));
        assertThat(progress.rateLimit()).isEqualTo(4);
    }

    @Test
    void aFailedImportReportsItsError() {
        Campaign failed = created().start(T0).campaign()
                .fail(T0.plusSeconds(5), "source_sync_failed", "Loading the contacts failed: gone", Map.of("error", "gone"))
                .campaign();
        CampaignProgress progress = CampaignProgress.of(failed, 0, 0, 1);
        assertThat(progress.sourceSync()).isEqualTo(new CampaignProgress.SourceSync("failed", null, "gone"));
        assertThat(progress.completedAt()).isEqualTo(T0.plusSeconds(5));
    }

    @Test
    void anEmptySourceCompletesAtZeroPercent() {
        Campaign empty = created().start(T0).campaign().contactsLoaded(0, T0.plusSeconds(1)).campaign();
        CampaignProgress progress = CampaignProgress.of(empty, 0, 0, 1);
        assertThat(progress.state()).isEqualTo(CampaignState.COMPLETED);
        assertThat(progress.sourceSync().status()).isEqualTo("completed");
        assertThat(progress.progressPercentage()).isZero();
    }
}
