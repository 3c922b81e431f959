package dev.voiceagent.application.campaign;

import io.smallrye.mutiny.Uni;

/** Housekeeping for the campaign list's counts: folds each campaign's recent tallies into one. */
public interface FoldCampaignTalliesUseCase {

    /** Folds the campaigns with unfolded tallies (a bounded amount per call); returns how many were folded. */
    Uni<Integer> fold();
}
