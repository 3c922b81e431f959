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

    /**
     * Reads the campaign, applies a transition (state, log entry and event in one transaction) and returns the
     * campaign as stored.
     */
    static Uni<CampaignView> transition(CampaignRepository campaigns, long org, long campaignId,
            Function<Campaign, CampaignTransition> change) {
        return find(campaigns, org, campaignId).chain(before -> transition(campaigns, before, change));
    }

    /** As above, from the campaign the caller has just read: a concurrent change since is a 409, nothing written. */
    static Uni<CampaignView> transition(CampaignRepository campaigns, Campaign before,
            Function<Campaign, CampaignTransition> change) {
        return campaigns.applyTransition(before, change.apply(before)).chain(applied -> {
            if (!applied) {
                throw new ConflictException("The campaign was changed by another request; please retry");
            }
            return campaigns.findView(before.organizationId(), before.id()).map(found -> found.orElseThrow());
        });
    }
}
