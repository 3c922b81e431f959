package dev.voiceagent.application.campaign;

import jakarta.inject.Singleton;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.List;

/**
 * A new campaign for the contacts of a completed one that were not reached, at most one redial per
 * campaign. The candidates are counted first (the contacts of a completed campaign no longer change);
 * the child, its contacts and the parent's mark are then written in one transaction.
 */
@Singleton
public class RedialCampaignService implements RedialCampaignUseCase {

    public static final String NO_CANDIDATES = "No subscribers match the selected redial criteria";
    public static final String ALREADY_REDIALED = "This campaign has already been redialed";

    private final CampaignRepository campaigns;
    private final ContactRepository contacts;
    private final Clock clock;

    public RedialCampaignService(CampaignRepository campaigns, ContactRepository contacts, Clock clock) {
        this.campaigns = campaigns;
        this.contacts = contacts;
        this.clock = clock;
    }

    @Override
    public Uni<CampaignView> redial(RedialCampaignCommand c) {
        long org = c.principal().organizationId();
        List<String> outcomes = c.outcomes();
        return Campaigns.find(campaigns, org, c.campaignId()).chain(parent -> {
            Campaign child = parent.redial(c.name(), c.retryConfig(), outcomes, clock.instant());
            return contacts.countFinishedWith(org, parent.id(), outcomes).chain(candidates -> {
                if (candidates == 0) {
                    throw new DomainRuleViolation(NO_CANDIDATES);
                }
                return campaigns.insertRedial(parent, child, outcomes);
            }).chain(saved -> campaigns.findView(org, saved.orElseThrow(() -> new DomainRuleViolation(ALREADY_REDIALED))
                    .id()).map(found -> found.orElseThrow()));
        });
    }
}
