package dev.voiceagent.domain.workflow;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** One execution of a workflow (a call or a chat), bound to the definition version it ran. */
public record WorkflowRun(
        Long id,
        long organizationId,
        long workflowId,
        long definitionId,
        String name,
        String mode,
        String callType,
        String state,
        boolean completed,
        String recordingUrl,
        String transcriptUrl,
        Map<String, Object> usageInfo,
        Map<String, Object> costInfo,
        Map<String, Object> initialContext,
        Map<String, Object> gatheredContext,
        Map<String, Object> logs,
        Map<String, Object> annotations,
        Long campaignId,
        Instant createdAt) {

    /** Where a run can take place: the telephony providers, the browser and text chat. */
    public static final List<String> MODES = List.of("ari", "plivo", "twilio", "vonage", "vobiz", "cloudonix", "telnyx",
            "simulator", "webrtc", "smallwebrtc", "textchat");
    private static final Set<String> BROWSER_MODES = Set.of("webrtc", "smallwebrtc", "textchat");

    public WorkflowRun {
        Objects.requireNonNull(createdAt, "createdAt");
        usageInfo = frozen(usageInfo);
        costInfo = frozen(costInfo);
        initialContext = frozen(initialContext);
        gatheredContext = frozen(gatheredContext);
        logs = frozen(logs);
        annotations = frozen(annotations);
    }

    /** At most this many context variables come with a call. */
    public static final int MAX_CONTEXT_VARIABLES = 50;

    /**
     * This run with {@code variables} added to its initial context (a browser call's context variables: each one
     * replaces a variable of the same name). At most {@value #MAX_CONTEXT_VARIABLES}, named by 1 to 64 characters,
     * each a text of at most 2,000 characters, a number or a boolean.
     */
    public WorkflowRun withContextVariables(Map<String, Object> variables) {
        checkContextVariables(variables);
        Map<String, Object> merged = new LinkedHashMap<>(initialContext == null ? Map.of() : initialContext);
        merged.putAll(variables);
        return withInitialContext(merged);
    }

    /** Throws a {@link DomainRuleViolation} saying what is wrong with these context variables. */
    public static void checkContextVariables(Map<String, Object> variables) {
        if (variables.size() > MAX_CONTEXT_VARIABLES) {
            throw new DomainRuleViolation("call_context_vars: at most " + MAX_CONTEXT_VARIABLES + " variables");
        }
        for (Map.Entry<String, Object> variable : variables.entrySet()) {
            String name = variable.getKey();
            if (name == null || name.isBlank() || name.length() > 64) {
                throw new DomainRuleViolation("call_context_vars: a variable's name is 1 to 64 characters");
            }
            Object value = variable.getValue();
            boolean fits = value instanceof String text ? text.length() <= 2_000
                    : value instanceof Number || value instanceof Boolean;
            if (!fits) {
                throw new DomainRuleViolation("call_context_vars." + name
                        + ": a text of at most 2,000 characters, a number or a boolean");
            }
        }
    }

    private static Map<String, Object> frozen(Map<String, Object> value) {
        return value == null ? null : JsonTree.asMap(JsonTree.freeze(value));
    }

    /**
     * A test run started from the editor: bound to the version given (draft or published), its
     * initial context the version's template variables. Browser and chat runs are inbound unless the
     * variables say direction=outbound; telephony runs are outbound.
     */
    public static WorkflowRun start(long organizationId, long workflowId, WorkflowVersion version, String name,
            String mode, Instant now) {
        String normalized = mode == null ? "" : mode.strip().toLowerCase(Locale.ROOT);
        if (!MODES.contains(normalized)) {
            throw new DomainRuleViolation("mode must be one of: " + String.join(", ", MODES));
        }
        String runName = name == null || name.isBlank() ? "Run" : name.strip();
        Map<String, Object> variables = version.templateContextVariables() == null ? Map.of()
                : version.templateContextVariables();
        String callType = BROWSER_MODES.contains(normalized) && !"outbound".equals(variables.get("direction"))
                ? "inbound" : "outbound";
        return initialized(organizationId, workflowId, version.id(), runName, normalized, callType, variables, now);
    }

    /**
     * A run about to be stored: no id yet, initialized, with nothing recorded, used, gathered or logged, outside any
     * campaign. Its name, mode and call type are taken as given ({@link #start} checks and normalizes them).
     */
    public static WorkflowRun initialized(long organizationId, long workflowId, long definitionId, String name,
            String mode, String callType, Map<String, Object> initialContext, Instant createdAt) {
        return new WorkflowRun(null, organizationId, workflowId, definitionId, name, mode, callType, "initialized",
                false, null, null, null, null, initialContext, null, null, null, null, createdAt);
    }

    /** This run as stored under {@code id}. */
    public WorkflowRun withId(long id) {
        return new WorkflowRun(id, organizationId, workflowId, definitionId, name, mode, callType, state, completed,
                recordingUrl, transcriptUrl, usageInfo, costInfo, initialContext, gatheredContext, logs, annotations,
                campaignId, createdAt);
    }

    /** This run in {@code state} ("initialized", "running", "completed", ...), completed or not. */
    public WorkflowRun withState(String state, boolean completed) {
        return new WorkflowRun(id, organizationId, workflowId, definitionId, name, mode, callType, state, completed,
                recordingUrl, transcriptUrl, usageInfo, costInfo, initialContext, gatheredContext, logs, annotations,
                campaignId, createdAt);
    }

    /** This run with its usage_info replaced (call duration, tokens and audio per model). */
    public WorkflowRun withUsage(Map<String, Object> usageInfo) {
        return new WorkflowRun(id, organizationId, workflowId, definitionId, name, mode, callType, state, completed,
                recordingUrl, transcriptUrl, usageInfo, costInfo, initialContext, gatheredContext, logs, annotations,
                campaignId, createdAt);
    }

    /** This run with its initial context replaced (what the conversation starts from). */
    public WorkflowRun withInitialContext(Map<String, Object> initialContext) {
        return new WorkflowRun(id, organizationId, workflowId, definitionId, name, mode, callType, state, completed,
                recordingUrl, transcriptUrl, usageInfo, costInfo, initialContext, gatheredContext, logs, annotations,
                campaignId, createdAt);
    }

    /** This run with its gathered context replaced (what the conversation extracted, its disposition and tags). */
    public WorkflowRun withGathered(Map<String, Object> gatheredContext) {
        return new WorkflowRun(id, organizationId, workflowId, definitionId, name, mode, callType, state, completed,
                recordingUrl, transcriptUrl, usageInfo, costInfo, initialContext, gatheredContext, logs, annotations,
                campaignId, createdAt);
    }

    /** This run with {@code reason} as its gathered context's error, the rest of that context kept. */
    public WorkflowRun withError(String reason) {
        Map<String, Object> gathered = new LinkedHashMap<>(gatheredContext == null ? Map.of() : gatheredContext);
        gathered.put("error", reason);
        return withGathered(gathered);
    }

    /** This run with its logs replaced (e.g. logs.realtime_feedback_events, what the run page shows). */
    public WorkflowRun withLogs(Map<String, Object> logs) {
        return new WorkflowRun(id, organizationId, workflowId, definitionId, name, mode, callType, state, completed,
                recordingUrl, transcriptUrl, usageInfo, costInfo, initialContext, gatheredContext, logs, annotations,
                campaignId, createdAt);
    }

    /** This run with its annotations replaced (where it came from: an embed, a voice replay, ...). */
    public WorkflowRun withAnnotations(Map<String, Object> annotations) {
        return new WorkflowRun(id, organizationId, workflowId, definitionId, name, mode, callType, state, completed,
                recordingUrl, transcriptUrl, usageInfo, costInfo, initialContext, gatheredContext, logs, annotations,
                campaignId, createdAt);
    }

    /** This run as a call of campaign {@code campaignId}. */
    public WorkflowRun withCampaign(long campaignId) {
        return new WorkflowRun(id, organizationId, workflowId, definitionId, name, mode, callType, state, completed,
                recordingUrl, transcriptUrl, usageInfo, costInfo, initialContext, gatheredContext, logs, annotations,
                campaignId, createdAt);
    }

    /**
     * What a finished call leaves on its run: the object-store keys of its recording and transcript (either may be
     * null when it was not stored) and its usage_info.
     */
    public WorkflowRun withArtifacts(String recordingUrl, String transcriptUrl, Map<String, Object> usageInfo) {
        return new WorkflowRun(id, organizationId, workflowId, definitionId, name, mode, callType, state, completed,
                recordingUrl, transcriptUrl, usageInfo, costInfo, initialContext, gatheredContext, logs, annotations,
                campaignId, createdAt);
    }

    /** usage_info.call_duration_seconds, when recorded. */
    public Double durationSeconds() {
        return usageInfo != null && usageInfo.get("call_duration_seconds") instanceof Number n ? n.doubleValue() : null;
    }

    /**
     * The cost a client sees, as the reference derives it: {dograh_token_usage, call_duration_seconds},
     * token usage from the stored cost (or the legacy total_cost_usd x 100), the duration from the
     * run's usage; null while the run has used nothing.
     */
    public Map<String, Object> costSummary() {
        Double duration = durationSeconds();
        Number tokens = null;
        if (costInfo != null && costInfo.get("dograh_token_usage") instanceof Number n) {
            tokens = n;
        } else if (costInfo != null && costInfo.get("total_cost_usd") instanceof Number usd) {
            tokens = usd.doubleValue() * 100;
        }
        if (duration == null && tokens == null) {
            return null;
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("dograh_token_usage", tokens == null ? 0 : tokens);
        summary.put("call_duration_seconds", duration == null ? 0 : duration);
        return Collections.unmodifiableMap(summary);
    }

    public String disposition() {
        return gatheredContext == null ? null : JsonTree.asString(gatheredContext.get("mapped_call_disposition"));
    }

    /**
     * What a completed run reports: the run.completed event's data, and what a webhook node's templates may
     * name (which adds the run's initial_context).
     */
    public Map<String, Object> results() {
        Map<String, Object> results = new LinkedHashMap<>();
        results.put("workflow_run_id", id);
        results.put("workflow_id", workflowId);
        results.put("campaign_id", campaignId);
        results.put("mode", mode);
        results.put("call_type", callType());
        results.put("disposition", disposition());
        results.put("duration_seconds", durationSeconds());
        results.put("gathered_context", gatheredContext());
        return results;
    }
}
