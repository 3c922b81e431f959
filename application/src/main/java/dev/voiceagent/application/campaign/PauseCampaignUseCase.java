package dev.voiceagent.application.campaign;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface PauseCampaignUseCase {

    Uni<CampaignView> pause(Principal principal, long campaignId);
}
