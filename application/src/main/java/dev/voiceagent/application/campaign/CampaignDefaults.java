package dev.voiceagent.application.campaign;

import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.RetryConfig;

/** What a new campaign form starts from: the limits in force, the engine's defaults, the last campaign's settings. */
public record CampaignDefaults(int concurrentCallLimit, int fromNumbersCount, RetryConfig defaultRetryConfig,
        Campaign lastCampaign) {
}
