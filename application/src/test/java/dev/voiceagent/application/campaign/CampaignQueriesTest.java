package dev.voiceagent.application.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignLogEntry;
import dev.voiceagent.domain.campaign.CampaignTransition;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CampaignQueriesTest {

    private final Campaign campaign = Campaign.create(10, 1, "Promo", 5, null, "campaigns/10/a.csv", null, null, null,
            null, Instant.parse("2026-11-21T10:00:00Z")).withId(42);

    /** What each fold of the tallies answers (how many campaigns it folded), and the limits it was given. */
    private final Deque<Integer> foldAnswers = new ArrayDeque<>();
    private final List<Integer> foldLimits = new ArrayList<>();

    /** A repository that only knows campaign 42 of organization 10. */
    private final CampaignRepository repository = new CampaignRepository() {
        @Override
        public Uni<Integer> foldTallies(int limit) {
            foldLimits.add(limit);
            return Uni.createFrom().item(foldAnswers.removeFirst());
        }

        @Override
        public Uni<Campaign> insert(Campaign c) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<Boolean> applyTransition(Campaign before, CampaignTransition t) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<Optional<Campaign>> insertRedial(Campaign parent, Campaign child, List<String> o) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<Boolean> applySettings(Campaign before, CampaignTransition t,
                Set<String> changed) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<Void> appendLog(long organizationId, long campaignId, CampaignLogEntry entry) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<List<CampaignView>> listViews(long organizationId) {
            return Uni.createFrom().item(organizationId == 10 ? List.of(new CampaignView(campaign, null, null, 0, 0)) : List.of());
        }

        @Override
        public Uni<Optional<CampaignView>> latest(long organizationId) {
            return listViews(organizationId).map(l -> l.stream().findFirst());
        }

        @Override
        public Uni<Optional<CampaignView>> findView(long organizationId, long campaignId) {
            return listViews(organizationId).map(l -> l.stream().filter(v -> v.campaign().id() == campaignId).findFirst());
        }
    };

    @Test
    void listIsScopedToTheCallersOrganization() {
        assertThat(new ListCampaignsService(repository).list(new Principal(1, 10, Principal.Method.API_KEY))
                .await().indefinitely()).hasSize(1);
        assertThat(new ListCampaignsService(repository).list(new Principal(2, 20, Principal.Method.API_KEY))
                .await().indefinitely()).isEmpty();
    }

    @Test
    void anotherOrganizationsCampaignIsNotFound() {
        GetCampaignService get = new GetCampaignService(repository);
        assertThat(get.get(new Principal(1, 10, Principal.Method.API_KEY), 42).await().indefinitely().workflowName())
                .isEqualTo("Unknown");
        assertThatThrownBy(() -> get.get(new Principal(2, 20, Principal.Method.API_KEY), 42).await().indefinitely())
                .isInstanceOf(ResourceNotFoundException.class).hasMessage("Campaign not found");
    }

    @Test
    void foldingGoesOnWhileBatchesComeBackFullAndStopsAtTheCap() {
        FoldCampaignTalliesService fold = new FoldCampaignTalliesService(repository);
        int batch = FoldCampaignTalliesService.BATCH;
        foldAnswers.addAll(List.of(batch, batch, 7));
        assertThat(fold.fold().await().indefinitely()).isEqualTo(2 * batch + 7);
        assertThat(foldLimits).containsExactly(batch, batch, batch);

        foldLimits.clear();
        foldAnswers.addAll(Collections.nCopies(FoldCampaignTalliesService.BATCHES + 5, batch));
        assertThat(fold.fold().await().indefinitely()).isEqualTo(FoldCampaignTalliesService.BATCHES * batch);
        assertThat(foldLimits).hasSize(FoldCampaignTalliesService.BATCHES);

        foldLimits.clear();
        foldAnswers.clear();
        foldAnswers.add(0);
        assertThat(fold.fold().await().indefinitely()).isZero();
        assertThat(foldLimits).hasSize(1);
    }
}
