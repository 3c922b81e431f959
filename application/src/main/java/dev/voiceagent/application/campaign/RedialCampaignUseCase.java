package dev.voiceagent.application.campaign;

import io.smallrye.mutiny.Uni;

public interface RedialCampaignUseCase {

    Uni<CampaignView> redial(RedialCampaignCommand command);
}
