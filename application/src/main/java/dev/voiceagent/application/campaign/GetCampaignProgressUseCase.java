package dev.voiceagent.application.campaign;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.campaign.CampaignProgress;
import dev.voiceagent.domain.campaign.DispatchStatus;
import io.smallrye.mutiny.Uni;

public interface GetCampaignProgressUseCase {

    /** The reference's progress figures and where the dispatch stands. */
    record Progress(CampaignProgress progress, DispatchStatus dispatch) {
    }

    Uni<Progress> progress(Principal principal, long campaignId);
}
