package dev.voiceagent.adapters.rest.workflow;

import dev.voiceagent.application.workflow.RunArtifactUseCases.PublicArtifactLinksUseCase;
import dev.voiceagent.domain.workflow.RunArtifact;
import dev.voiceagent.domain.workflow.RunTraceId;
import dev.voiceagent.domain.workflow.WorkflowRun;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Run wire shapes, by the reference's schema names. */
public final class WorkflowRunResponses {

    private WorkflowRunResponses() {
    }

    @Schema(name = "CreateWorkflowRunResponse")
    public record CreateWorkflowRunResponse(long id, long workflowId, String name, String mode,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt,
            long definitionId, @Schema(nullable = true) Map<String, Object> initialContext) {

        static CreateWorkflowRunResponse of(WorkflowRun r) {
            return new CreateWorkflowRunResponse(r.id(), r.workflowId(), r.name(), r.mode(), r.createdAt(),
                    r.definitionId(), r.initialContext());
        }
    }

    @Schema(name = "WorkflowRunResponseSchema")
    public record WorkflowRunResponse(
            @Schema(required = true) long id,
            @Schema(required = true) long workflowId,
            @Schema(required = true) String name,
            @Schema(required = true) String mode,
            @Schema(required = true, type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt,
            @Schema(required = true) boolean isCompleted,
            @Schema(required = true, nullable = true) String transcriptUrl,
            @Schema(required = true, nullable = true) String recordingUrl,
            @Schema(nullable = true) String userRecordingUrl,
            @Schema(nullable = true) String botRecordingUrl,
            @Schema(nullable = true) String transcriptPublicUrl,
            @Schema(nullable = true) String recordingPublicUrl,
            @Schema(nullable = true) String userRecordingPublicUrl,
            @Schema(nullable = true) String botRecordingPublicUrl,
            @Schema(nullable = true) String publicAccessToken,
            @Schema(required = true, nullable = true, description = "{dograh_token_usage, call_duration_seconds},"
                    + " derived from the run's usage; null while the run has used nothing") Map<String, Object> costInfo,
            @Schema(nullable = true) Map<String, Object> usageInfo,
            @Schema(required = true, nullable = true) Long definitionId,
            @Schema(nullable = true) Map<String, Object> initialContext,
            @Schema(nullable = true) Map<String, Object> gatheredContext,
            @Schema(required = true, enumeration = {"inbound", "outbound"}) String callType,
            @Schema(nullable = true) Map<String, Object> logs,
            @Schema(nullable = true) Map<String, Object> annotations,
            @Schema(required = true, description = "The run's trace id (W3C, 32 hex digits): its call or chat in the"
                    + " operator's collector and the organization's Langfuse project") String traceId) {

        public static WorkflowRunResponse of(WorkflowRun r) {
            return of(r, Map.of(), null);
        }

        /** With the public links of the artifacts the run has ({base}/api/v1/public/download/workflow/{token}/{type}). */
        public static WorkflowRunResponse of(WorkflowRun r, Map<RunArtifact, String> tokens, String base) {
            Function<RunArtifact, String> link = a -> tokens.containsKey(a) && base != null
                    ? PublicArtifactLinksUseCase.publicLink(base, tokens.get(a), a) : null;
            return new WorkflowRunResponse(r.id(), r.workflowId(), r.name(), r.mode(), r.createdAt(), r.completed(),
                    r.transcriptUrl(), r.recordingUrl(), RunArtifact.USER_RECORDING.locationIn(r),
                    RunArtifact.BOT_RECORDING.locationIn(r), link.apply(RunArtifact.TRANSCRIPT),
                    link.apply(RunArtifact.RECORDING), link.apply(RunArtifact.USER_RECORDING),
                    link.apply(RunArtifact.BOT_RECORDING), null, r.costSummary(), r.usageInfo(), r.definitionId(),
                    r.initialContext(), r.gatheredContext(), r.callType(), r.logs(), r.annotations(),
                    RunTraceId.of(r));
        }
    }

    @Schema(name = "WorkflowRunsResponse")
    public record WorkflowRunsResponse(@Schema(required = true) List<WorkflowRunResponse> runs,
            @Schema(required = true) long totalCount, @Schema(required = true) int page,
            @Schema(required = true) int limit, @Schema(required = true) long totalPages,
            @Schema(nullable = true) List<Object> appliedFilters) {
    }
}
