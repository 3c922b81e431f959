package dev.voiceagent.application.campaign;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import io.smallrye.mutiny.Uni;

@Singleton
public class GetCampaignService implements GetCampaignUseCase {

    public static final String NOT_FOUND = "Campaign not found";

    private final CampaignRepository campaigns;

    public GetCampaignService(CampaignRepository campaigns) {
        this.campaigns = campaigns;
    }

    @Override
    public Uni<CampaignView> get(Principal principal, long campaignId) {
        return campaigns.findView(principal.organizationId(), campaignId)
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND)));
    }
}
