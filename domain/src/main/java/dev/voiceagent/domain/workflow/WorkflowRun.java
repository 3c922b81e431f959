package dev.voiceagent.domain.workflow;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Instant;
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
        return new WorkflowRun(null, organizationId, workflowId, version.id(), runName, normalized, callType,
                "initialized", false, null, null, null, null, variables, null, null, null, null, now);
    }

    /** usage_info.call_duration_seconds, when recorded. */
    public Double durationSeconds() {
        return usageInfo != null && usageInfo.get("call_duration_seconds") instanceof Number n ? n.doubleValue() : null;
    }

    public String disposition() {
        return gatheredContext == null ? null : JsonTree.asString(gatheredContext.get("mapped_call_disposition"));
    }
}
