package dev.voiceagent.application.campaign;

import jakarta.inject.Singleton;
import io.smallrye.mutiny.Uni;

/**
 * Folds the campaigns' tallies in batches of {@value #BATCH} campaigns, one statement each, and at
 * most {@value #BATCHES} batches per call (a busy installation continues at the next tick).
 */
@Singleton
public class FoldCampaignTalliesService implements FoldCampaignTalliesUseCase {

    static final int BATCH = 500;
    static final int BATCHES = 20;

    private final CampaignRepository campaigns;

    public FoldCampaignTalliesService(CampaignRepository campaigns) {
        this.campaigns = campaigns;
    }

    @Override
    public Uni<Integer> fold() {
        return foldFrom(0, BATCHES);
    }

    private Uni<Integer> foldFrom(int done, int batchesLeft) {
        return campaigns.foldTallies(BATCH).chain(folded -> folded < BATCH || batchesLeft == 1
                ? Uni.createFrom().item(done + folded) : foldFrom(done + folded, batchesLeft - 1));
    }
}
