package dev.voiceagent.application.campaign;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.campaign.CircuitBreakerConfig;
import dev.voiceagent.domain.campaign.RetryConfig;
import dev.voiceagent.domain.campaign.ScheduleConfig;

/** A PATCH of a campaign's settings; null leaves a setting unchanged. */
public record UpdateCampaignCommand(Principal principal, long campaignId, String name, RetryConfig retryConfig,
        Integer maxConcurrency, ScheduleConfig scheduleConfig, CircuitBreakerConfig circuitBreaker) {
}
