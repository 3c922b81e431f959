package dev.voiceagent.application.campaign;

import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignTransition;
import io.smallrye.mutiny.Uni;
import java.util.function.Function;

/** Steps the campaign use cases share. */
final class Campaigns {

    private Campaigns() {
    }

    static Uni<Campaign> find(CampaignRepository campaigns, long org, long campaignId) {
        return campaigns.findView(org, campaignId).map(found -> found.orElseThrow(
                () -> new ResourceNotFoundException(GetCampaignService.NOT_FOUND)).campaign());
    }

    /** Applies a transition (state and log entry in one transaction) and returns the campaign as stored. */
    static Uni<CampaignView> transition(CampaignRepository campaigns, long org, long campaignId,
            Function<Campaign, CampaignTransition> change) {
        return find(campaigns, org, campaignId).chain(before -> campaigns.applyTransition(before, change.apply(before))
                .chain(applied -> {
                    if (!applied) {
                        throw new ConflictException("The campaign was changed by another request; please retry");
                    }
                    return campaigns.findView(org, campaignId).map(found -> found.orElseThrow());
                }));
    }
}
