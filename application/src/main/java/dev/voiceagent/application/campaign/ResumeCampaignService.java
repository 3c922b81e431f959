package dev.voiceagent.application.campaign;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import io.smallrye.mutiny.Uni;
import java.time.Clock;

@Singleton
public class ResumeCampaignService implements ResumeCampaignUseCase {

    private final CampaignRepository campaigns;
    private final TelephonyConfigurationRepository configurations;
    private final Clock clock;

    public ResumeCampaignService(CampaignRepository campaigns, TelephonyConfigurationRepository configurations,
            Clock clock) {
        this.campaigns = campaigns;
        this.configurations = configurations;
        this.clock = clock;
    }

    @Override
    public Uni<CampaignView> resume(Principal principal, long campaignId) {
        long org = principal.organizationId();
        return Campaigns.find(campaigns, org, campaignId)
                .call(() -> StartCampaignService.requireTelephony(configurations, org))
                .chain(before -> Campaigns.transition(campaigns, before, campaign -> campaign.resume(clock.instant())));
    }
}
