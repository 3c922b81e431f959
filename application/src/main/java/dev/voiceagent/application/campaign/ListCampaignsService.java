package dev.voiceagent.application.campaign;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;
import java.util.List;

@Singleton
public class ListCampaignsService implements ListCampaignsUseCase {

    private final CampaignRepository campaigns;

    public ListCampaignsService(CampaignRepository campaigns) {
        this.campaigns = campaigns;
    }

    @Override
    public Uni<List<CampaignView>> list(Principal principal) {
        return campaigns.listViews(principal.organizationId());
    }
}
