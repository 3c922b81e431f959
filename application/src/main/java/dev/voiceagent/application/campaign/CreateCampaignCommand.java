package dev.voiceagent.application.campaign;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CircuitBreakerConfig;
import dev.voiceagent.domain.campaign.RetryConfig;
import dev.voiceagent.domain.campaign.ScheduleConfig;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.Objects;

public record CreateCampaignCommand(Principal principal, String name, long workflowId, String sourceType,
        String sourceId, Long telephonyConfigurationId, RetryConfig retryConfig, Integer maxConcurrency,
        ScheduleConfig scheduleConfig, CircuitBreakerConfig circuitBreaker) {

    public CreateCampaignCommand {
        Objects.requireNonNull(principal, "principal");
        if (!"csv".equals(sourceType)) {
            throw new DomainRuleViolation("source_type must be 'csv'");
        }
        if (sourceId == null || sourceId.isBlank()) {
            throw new DomainRuleViolation("source_id is required");
        }
        if (name == null || name.isBlank() || name.length() > Campaign.MAX_NAME_LENGTH) {
            throw new DomainRuleViolation("name must be between 1 and 255 characters");
        }
    }
}
