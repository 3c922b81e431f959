package dev.voiceagent.application.campaign;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ForbiddenException;
import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.storage.ObjectKeys;
import io.smallrye.mutiny.Uni;

@Singleton
public class CreateSourceDownloadUrlService implements CreateSourceDownloadUrlUseCase {

    private final CampaignRepository campaigns;
    private final ObjectStore store;

    public CreateSourceDownloadUrlService(CampaignRepository campaigns, ObjectStore store) {
        this.campaigns = campaigns;
        this.store = store;
    }

    @Override
    public Uni<String> create(Principal principal, long campaignId) {
        long org = principal.organizationId();
        return Campaigns.find(campaigns, org, campaignId).chain(campaign -> {
            if (!"csv".equals(campaign.sourceType())) {
                throw new DomainRuleViolation("Download URL only available for CSV sources. This campaign uses "
                        + campaign.sourceType());
            }
            try {
                ObjectKeys.checkOwner(campaign.sourceId(), org);
            } catch (ObjectKeys.ForeignKeyException | DomainRuleViolation e) {
                throw new ForbiddenException("Access denied: Source file does not belong to your organization");
            }
            return store.signedDownloadUrl(campaign.sourceId(), VALID_FOR, false);
        });
    }
}
