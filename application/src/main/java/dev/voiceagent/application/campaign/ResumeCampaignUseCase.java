package dev.voiceagent.application.campaign;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface ResumeCampaignUseCase {

    Uni<CampaignView> resume(Principal principal, long campaignId);
}
