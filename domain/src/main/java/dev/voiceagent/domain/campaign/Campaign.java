package dev.voiceagent.domain.campaign;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

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

    /** The call outcomes a redial can select: the contact was not reached. */
    public static final List<String> REDIAL_OUTCOMES = List.of("voicemail", "no-answer", "busy");

    /**
     * A redial of this (completed, not yet redialed) campaign: same workflow, source and settings,
     * and, unlike the reference, the same telephony configuration. Its contacts are copied from
     * this campaign's, so it starts straight into running. {@code name} null means "name (Redial)".
     */
    public Campaign redial(String newName, RetryConfig newRetry, Collection<String> outcomes, Instant now) {
        if (state != CampaignState.COMPLETED) {
            throw new DomainRuleViolation("Only completed campaigns can be redialed (current state: " + state.wireName() + ")");
        }
        if (redialedCampaignId != null) {
            throw new DomainRuleViolation("This campaign has already been redialed");
        }
        if (outcomes.isEmpty() || !REDIAL_OUTCOMES.containsAll(outcomes)) {
            throw new DomainRuleViolation("Select at least one of voicemail, no-answer and busy to redial");
        }
        String suffix = " (Redial)";
        String childName = newName != null ? newName.strip()
                : (name.length() + suffix.length() > MAX_NAME_LENGTH
                        ? name.substring(0, MAX_NAME_LENGTH - suffix.length()) : name) + suffix;
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("parent_campaign_id", id);
        details.put("outcomes", List.copyOf(outcomes));
        CampaignLogEntry entry = new CampaignLogEntry(now, LogLevel.INFO, "created",
                "Redial of campaign " + id + " for contacts whose last call ended " + String.join(", ", outcomes), details);
        return new Campaign(null, organizationId, childName, workflowId, createdBy, telephonyConfigurationId, sourceType,
                sourceId, CampaignState.CREATED, null, 0, 0, newRetry != null ? newRetry : retryConfig, maxConcurrency,
                scheduleConfig, circuitBreaker, id, null, now, null, null, List.of(entry));
    }

    /** The breaker in force: the stored one, or {@link CircuitBreakerConfig#NONE}. */
    public CircuitBreakerConfig effectiveCircuitBreaker() {
        return circuitBreaker == null ? CircuitBreakerConfig.NONE : circuitBreaker;
    }

    /**
     * created -> syncing (a redial, whose contacts exist already, goes straight to running).
     * Needs a telephony configuration in the organization; the caller checks that.
     */
    public CampaignTransition start(Instant now) {
        if (state != CampaignState.CREATED) {
            throw new DomainRuleViolation("Campaign must be in 'created' state to start, current state: " + state.wireName());
        }
        CampaignState next = parentCampaignId != null ? CampaignState.RUNNING : CampaignState.SYNCING;
        return transition(next, now, null, "started", "Campaign started" + (next == CampaignState.RUNNING
                ? " (redial: contacts already loaded)" : "; loading contacts"), null);
    }

    /** running or syncing -> paused. A pause during syncing sticks when the sync finishes. */
    public CampaignTransition pause(Instant now, String reason) {
        if (state != CampaignState.RUNNING && state != CampaignState.SYNCING) {
            throw new DomainRuleViolation("Campaign must be in 'running' or 'syncing' state to pause, current state: "
                    + state.wireName());
        }
        return transition(CampaignState.PAUSED, now, null, "paused", reason == null ? "Campaign paused" : reason, null);
    }

    public CampaignTransition resume(Instant now) {
        if (state != CampaignState.PAUSED) {
            throw new DomainRuleViolation("Campaign must be in 'paused' state to resume, current state: " + state.wireName());
        }
        return transition(CampaignState.RUNNING, now, null, "resumed", "Campaign resumed; the breaker starts a fresh window",
                null);
    }

    /** The contacts are loaded: syncing -> running, or completed when there are none; a paused campaign stays paused. */
    public CampaignTransition contactsLoaded(int rows, Instant now) {
        return contactsLoaded(rows, 0, List.of(), now);
    }

    /**
     * As {@link #contactsLoaded(int, Instant)}, with the rows the import skipped (a number no
     * longer valid: the file changed after create): a warning entry naming the first of them.
     */
    public CampaignTransition contactsLoaded(int rows, int skipped, List<Integer> skippedExamples, Instant now) {
        CampaignTransition loaded = loaded(rows, now);
        if (skipped == 0) {
            return loaded;
        }
        Map<String, Object> details = new LinkedHashMap<>(loaded.entry().details());
        details.put("skipped_rows", skipped);
        details.put("skipped_row_numbers", List.copyOf(skippedExamples));
        CampaignLogEntry entry = new CampaignLogEntry(now, LogLevel.WARNING, loaded.entry().event(),
                loaded.entry().message() + "; " + skipped + " rows skipped (invalid phone number), e.g. rows "
                        + skippedExamples.stream().map(String::valueOf).collect(Collectors.joining(", ")), details);
        List<CampaignLogEntry> logs = new ArrayList<>(loaded.campaign().logs());
        logs.set(logs.size() - 1, entry);
        Campaign c = loaded.campaign();
        return CampaignTransition.of(this, new Campaign(c.id(), c.organizationId(), c.name(), c.workflowId(), c.createdBy(),
                c.telephonyConfigurationId(), c.sourceType(), c.sourceId(), c.state(), c.totalRows(), c.processedRows(),
                c.failedRows(), c.retryConfig(), c.maxConcurrency(), c.scheduleConfig(), c.circuitBreaker(),
                c.parentCampaignId(), c.redialedCampaignId(), c.createdAt(), c.startedAt(), c.completedAt(), logs), entry);
    }

    private CampaignTransition loaded(int rows, Instant now) {
        Campaign counted = new Campaign(id, organizationId, name, workflowId, createdBy, telephonyConfigurationId,
                sourceType, sourceId, state, rows, processedRows, failedRows, retryConfig, maxConcurrency, scheduleConfig,
                circuitBreaker, parentCampaignId, redialedCampaignId, createdAt, startedAt, completedAt, logs);
        Map<String, Object> details = Map.of("total_rows", rows);
        if (rows == 0) {
            return counted.transition(CampaignState.COMPLETED, now, now, "completed", "No contacts to call", details);
        }
        CampaignState next = state == CampaignState.PAUSED ? CampaignState.PAUSED : CampaignState.RUNNING;
        return counted.transition(next, now, null, "contacts_loaded", rows + " contacts loaded"
                + (next == CampaignState.PAUSED ? "; the campaign stays paused" : ""), details);
    }

    /**
     * Changes the settings (any state but completed and failed, running included; the dispatcher
     * reads them on its next tick). Null leaves a setting as it is; the workflow, source and
     * telephony configuration never change. The entry names what changed.
     */
    public CampaignTransition update(String newName, RetryConfig newRetry, Integer newMaxConcurrency,
            ScheduleConfig newSchedule, CircuitBreakerConfig newBreaker, Instant now) {
        if (state.isTerminal()) {
            throw new DomainRuleViolation("Cannot update a " + state.wireName() + " campaign");
        }
        List<String> changed = changedSettings(newName, newRetry, newMaxConcurrency, newSchedule, newBreaker);
        CampaignLogEntry entry = new CampaignLogEntry(now, LogLevel.INFO, "updated",
                changed.isEmpty() ? "Nothing to change" : "Settings changed: " + String.join(", ", changed),
                Map.of("changed", List.copyOf(changed)));
        List<CampaignLogEntry> appended = new ArrayList<>(logs);
        appended.add(entry);
        Campaign updated = new Campaign(id, organizationId, newName != null ? newName.strip() : name, workflowId,
                createdBy, telephonyConfigurationId, sourceType, sourceId, state, totalRows, processedRows, failedRows,
                newRetry != null ? newRetry : retryConfig, newMaxConcurrency != null ? newMaxConcurrency : maxConcurrency,
                newSchedule != null ? newSchedule : scheduleConfig, newBreaker != null ? newBreaker : circuitBreaker,
                parentCampaignId, redialedCampaignId, createdAt, startedAt, completedAt, appended);
        return CampaignTransition.of(this, updated, entry);
    }

    /** The wire names of the settings an update gives (non-null), in a fixed order. */
    public static List<String> changedSettings(String newName, RetryConfig newRetry, Integer newMaxConcurrency,
            ScheduleConfig newSchedule, CircuitBreakerConfig newBreaker) {
        List<String> changed = new ArrayList<>();
        String[] names = {"name", "retry_config", "max_concurrency", "schedule_config", "circuit_breaker"};
        Object[] values = {newName, newRetry, newMaxConcurrency, newSchedule, newBreaker};
        for (int i = 0; i < names.length; i++) {
            if (values[i] != null) {
                changed.add(names[i]);
            }
        }
        return List.copyOf(changed);
    }

    /** No contact is pending or waiting for a retry and no call is active. */
    public CampaignTransition complete(Instant now) {
        if (state.isTerminal()) {
            throw new DomainRuleViolation("Campaign is already " + state.wireName());
        }
        return transition(CampaignState.COMPLETED, now, now, "completed", "All contacts reached a final state", null);
    }

    public CampaignTransition fail(Instant now, String event, String message, Map<String, Object> details) {
        if (state.isTerminal()) {
            throw new DomainRuleViolation("Campaign is already " + state.wireName());
        }
        return transition(CampaignState.FAILED, now, now, event, message, details, LogLevel.ERROR);
    }

    /** The breaker tripped: running -> paused, the entry carrying the rate, counts and threshold. */
    public CampaignTransition tripBreaker(CircuitBreakerPolicy.Trip trip, List<String> recentFailures, Instant now) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("failure_rate", trip.failureRate());
        details.put("calls", trip.calls());
        details.put("failures", trip.failures());
        details.put("threshold", trip.threshold());
        details.put("window_seconds", trip.windowSeconds());
        details.put("recent_failures", List.copyOf(recentFailures));
        return transition(CampaignState.PAUSED, now, null, "circuit_breaker_tripped", String.format(Locale.ROOT,
                "Failure rate %.0f%% (%d of %d calls in %d s) reached the threshold of %.0f%%: campaign paused",
                trip.failureRate() * 100, trip.failures(), trip.calls(), trip.windowSeconds(), trip.threshold() * 100),
                details, LogLevel.WARNING);
    }

    private CampaignTransition transition(CampaignState next, Instant now, Instant completed,
            String event, String message, Map<String, Object> details) {
        return transition(next, now, completed, event, message, details, LogLevel.INFO);
    }

    private CampaignTransition transition(CampaignState next, Instant now, Instant completed,
            String event, String message, Map<String, Object> details, LogLevel level) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("from", state.wireName());
        all.put("to", next.wireName());
        if (details != null) {
            all.putAll(details);
        }
        CampaignLogEntry entry = new CampaignLogEntry(now, level, event, message, all);
        List<CampaignLogEntry> appended = new ArrayList<>(logs);
        appended.add(entry);
        Campaign changed = new Campaign(id, organizationId, name, workflowId, createdBy, telephonyConfigurationId,
                sourceType, sourceId, next, totalRows, processedRows, failedRows, retryConfig, maxConcurrency,
                scheduleConfig, circuitBreaker, parentCampaignId, redialedCampaignId, createdAt,
                startedAt == null && next != CampaignState.CREATED ? now : startedAt,
                completed != null ? completed : completedAt, appended);
        return CampaignTransition.of(this, changed, entry);
    }

    public Campaign withId(long newId) {
        return new Campaign(newId, organizationId, name, workflowId, createdBy, telephonyConfigurationId, sourceType,
                sourceId, state, totalRows, processedRows, failedRows, retryConfig, maxConcurrency, scheduleConfig,
                circuitBreaker, parentCampaignId, redialedCampaignId, createdAt, startedAt, completedAt, logs);
    }
}
