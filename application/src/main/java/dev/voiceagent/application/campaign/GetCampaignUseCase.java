package dev.voiceagent.application.campaign;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface GetCampaignUseCase {

    /** Fails with ResourceNotFoundException("Campaign not found") outside the caller's organization. */
    Uni<CampaignView> get(Principal principal, long campaignId);
}
