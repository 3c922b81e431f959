package dev.voiceagent.application.campaign;

import io.smallrye.mutiny.Uni;

public interface CreateCampaignUseCase {

    /** Validates everything (nothing is stored on failure) and stores the campaign in state created. */
    Uni<CampaignView> create(CreateCampaignCommand command);
}
