package dev.voiceagent.application.campaign;

import dev.voiceagent.domain.campaign.Campaign;
import java.util.Objects;

/**
 * A campaign as the API shows it: the aggregate plus names resolved in its organization and the
 * counts of its call attempts (retries included).
 */
public record CampaignView(
        Campaign campaign,
        String workflowName,
        String telephonyConfigurationName,
        long executedCount,
        long totalQueuedCount) {

    public static final String UNKNOWN_WORKFLOW = "Unknown";

    public CampaignView {
        Objects.requireNonNull(campaign, "campaign");
        workflowName = workflowName == null ? UNKNOWN_WORKFLOW : workflowName;
    }
}
