package dev.voiceagent.application.campaign;

import io.smallrye.mutiny.Uni;

public interface UpdateCampaignUseCase {

    Uni<CampaignView> update(UpdateCampaignCommand command);
}
