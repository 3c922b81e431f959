package dev.voiceagent.application.campaign;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;
import java.time.Clock;

@Singleton
public class PauseCampaignService implements PauseCampaignUseCase {

    private final CampaignRepository campaigns;
    private final Clock clock;

    public PauseCampaignService(CampaignRepository campaigns, Clock clock) {
        this.campaigns = campaigns;
        this.clock = clock;
    }

    @Override
    public Uni<CampaignView> pause(Principal principal, long campaignId) {
        return Campaigns.transition(campaigns, principal.organizationId(), campaignId,
                campaign -> campaign.pause(clock.instant(), "Campaign paused by a user"));
    }
}
