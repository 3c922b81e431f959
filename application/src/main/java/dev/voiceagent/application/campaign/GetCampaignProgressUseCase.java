package dev.voiceagent.application.campaign;

import dev.voiceagent.application.auth.Principal;
import dev.voiceagent.domain.campaign.CampaignProgress;
import io.smallrye.mutiny.Uni;

public interface GetCampaignProgressUseCase {

    Uni<CampaignProgress> progress(Principal principal, long campaignId);
}
