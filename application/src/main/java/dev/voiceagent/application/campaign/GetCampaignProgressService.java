package dev.voiceagent.application.campaign;

import dev.voiceagent.application.auth.Principal;
import dev.voiceagent.application.call.CallRepository;
import dev.voiceagent.domain.campaign.CampaignProgress;
import io.smallrye.mutiny.Uni;

/**
 * Progress counted from the contacts themselves (not from counters that could drift), the import
 * state from the campaign's log, and the concurrency cap in force: the campaign's max_concurrency,
 * else the organization's call limit.
 */
public class GetCampaignProgressService implements GetCampaignProgressUseCase {

    private final CampaignRepository campaigns;
    private final ContactRepository contacts;
    private final CallRepository calls;
    private final int defaultLimit;

    public GetCampaignProgressService(CampaignRepository campaigns, ContactRepository contacts, CallRepository calls,
            int defaultLimit) {
        this.campaigns = campaigns;
        this.contacts = contacts;
        this.calls = calls;
        this.defaultLimit = Math.max(1, defaultLimit);
    }

    @Override
    public Uni<CampaignProgress> progress(Principal principal, long campaignId) {
        long org = principal.organizationId();
        return Campaigns.find(campaigns, org, campaignId).chain(campaign -> {
            Uni<Integer> cap = campaign.maxConcurrency() != null ? Uni.createFrom().item(campaign.maxConcurrency())
                    : calls.organizationLimit(org).map(limit -> limit.orElse(defaultLimit));
            return Uni.combine().all().unis(contacts.tally(org, campaignId), cap)
                    .with((tally, limit) -> CampaignProgress.of(campaign, tally.processed(), tally.failed(), limit));
        });
    }
}
