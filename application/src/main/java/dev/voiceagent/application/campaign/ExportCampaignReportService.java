package dev.voiceagent.application.campaign;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import dev.voiceagent.application.workflow.RunReportStream;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.time.Instant;

/** The campaign's CSV report: the workflow report's columns over the runs the campaign placed, streamed. */
@Singleton
public class ExportCampaignReportService implements ExportCampaignReportUseCase {

    private final CampaignRepository campaigns;
    private final WorkflowRunRepository runs;

    public ExportCampaignReportService(CampaignRepository campaigns, WorkflowRunRepository runs) {
        this.campaigns = campaigns;
        this.runs = runs;
    }

    @Override
    public Uni<Multi<String>> export(Principal principal, long campaignId, Instant from, Instant to) {
        long org = principal.organizationId();
        return Campaigns.find(campaigns, org, campaignId)
                .chain(c -> runs.campaignReportVariables(org, campaignId, from, to))
                .map(variables -> RunReportStream.csv(variables, runs.campaignReportRuns(org, campaignId, from, to)));
    }
}
