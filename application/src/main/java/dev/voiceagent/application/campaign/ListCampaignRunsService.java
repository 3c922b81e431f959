package dev.voiceagent.application.campaign;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.workflow.RunPage;
import dev.voiceagent.application.workflow.RunPageQuery;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import io.smallrye.mutiny.Uni;

/** The workflow runs a campaign placed; another organization's campaign is not found. */
@Singleton
public class ListCampaignRunsService implements ListCampaignRunsUseCase {

    private final CampaignRepository campaigns;
    private final WorkflowRunRepository runs;

    public ListCampaignRunsService(CampaignRepository campaigns, WorkflowRunRepository runs) {
        this.campaigns = campaigns;
        this.runs = runs;
    }

    @Override
    public Uni<RunPage> list(Principal principal, long campaignId, RunPageQuery query) {
        long org = principal.organizationId();
        return Campaigns.find(campaigns, org, campaignId).chain(campaign -> runs.pageForCampaign(org, campaignId, query));
    }
}
