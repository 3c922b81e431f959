package dev.voiceagent.domain.campaign;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * An outbound calling job: a contact list (source) called through a workflow, with retry, schedule
 * and circuit-breaker settings. The log is append-only and ordered as written.
 */
public record Campaign(
        Long id,
        long organizationId,
        String name,
        long workflowId,
        Long createdBy,
        Long telephonyConfigurationId,
        String sourceType,
        String sourceId,
        CampaignState state,
        Integer totalRows,
        int processedRows,
        int failedRows,
        RetryConfig retryConfig,
        Integer maxConcurrency,
        ScheduleConfig scheduleConfig,
        CircuitBreakerConfig circuitBreaker,
        Long parentCampaignId,
        Long redialedCampaignId,
        Instant createdAt,
        Instant startedAt,
        Instant completedAt,
        List<CampaignLogEntry> logs) {

    public static final int MAX_NAME_LENGTH = 255;
    public static final int MAX_CONCURRENCY_LIMIT = 100;

    public Campaign {
        Objects.requireNonNull(sourceType, "sourceType");
        Objects.requireNonNull(sourceId, "sourceId");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(retryConfig, "retryConfig");
        Objects.requireNonNull(createdAt, "createdAt");
        if (name == null || name.isBlank() || name.length() > MAX_NAME_LENGTH) {
            throw new DomainRuleViolation("name must be between 1 and " + MAX_NAME_LENGTH + " characters");
        }
        if (maxConcurrency != null && (maxConcurrency < 1 || maxConcurrency > MAX_CONCURRENCY_LIMIT)) {
            throw new DomainRuleViolation("max_concurrency must be between 1 and " + MAX_CONCURRENCY_LIMIT);
        }
        if (processedRows < 0 || failedRows < 0 || (totalRows != null && totalRows < 0)) {
            throw new DomainRuleViolation("row counts cannot be negative");
        }
        logs = List.copyOf(logs == null ? List.of() : logs);
    }

    /** A new campaign as created by a user: state created, nothing dialed yet, no log entries. */
    public static Campaign create(long organizationId, long createdBy, String name, long workflowId,
            Long telephonyConfigurationId, String sourceId, RetryConfig retryConfig, Integer maxConcurrency,
            ScheduleConfig scheduleConfig, CircuitBreakerConfig circuitBreaker, Instant now) {
        return new Campaign(null, organizationId, name, workflowId, createdBy, telephonyConfigurationId, "csv",
                sourceId, CampaignState.CREATED, null, 0, 0, retryConfig == null ? RetryConfig.DEFAULT : retryConfig,
                maxConcurrency, scheduleConfig, circuitBreaker, null, null, now, null, null, List.of());
    }

    /** The breaker in force: the stored one, or {@link CircuitBreakerConfig#NONE}. */
    public CircuitBreakerConfig effectiveCircuitBreaker() {
        return circuitBreaker == null ? CircuitBreakerConfig.NONE : circuitBreaker;
    }

    public Campaign withId(long newId) {
        return new Campaign(newId, organizationId, name, workflowId, createdBy, telephonyConfigurationId, sourceType,
                sourceId, state, totalRows, processedRows, failedRows, retryConfig, maxConcurrency, scheduleConfig,
                circuitBreaker, parentCampaignId, redialedCampaignId, createdAt, startedAt, completedAt, logs);
    }
}
