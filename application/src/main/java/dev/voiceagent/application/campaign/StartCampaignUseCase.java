package dev.voiceagent.application.campaign;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface StartCampaignUseCase {

    Uni<CampaignView> start(Principal principal, long campaignId);
}
