package dev.voiceagent.adapters.rest.workflow;

import dev.voiceagent.application.workflow.WorkflowDetails;
import dev.voiceagent.application.workflow.WorkflowListItem;
import dev.voiceagent.domain.workflow.JsonTree;
import dev.voiceagent.domain.workflow.SecretMasking;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowError;
import dev.voiceagent.domain.workflow.WorkflowTemplate;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Workflow wire shapes, by the reference's schema names. Secrets are masked on the way out. */
public final class WorkflowResponses {

    private WorkflowResponses() {
    }

    static Map<String, Object> masked(Map<String, Object> tree) {
        return tree == null ? null : JsonTree.asMap(SecretMasking.masked(tree));
    }

    @Schema(name = "CallDispositionCodes")
    public record CallDispositionCodes(List<String> dispositionCodes) {
    }

    @Schema(name = "WorkflowResponse")
    public record WorkflowResponse(
            @Schema(required = true) long id,
            @Schema(required = true) String name,
            @Schema(required = true) String status,
            @Schema(required = true, type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt,
            @Schema(required = true) Map<String, Object> workflowDefinition,
            @Schema(required = true, nullable = true) Long currentDefinitionId,
            @Schema(nullable = true) Map<String, Object> templateContextVariables,
            @Schema(nullable = true, implementation = CallDispositionCodes.class, description = "The workflow's own"
                    + " disposition codes; none can be set through this API yet") Map<String, Object> callDispositionCodes,
            @Schema(nullable = true) Long totalRuns,
            @Schema(nullable = true) Map<String, Object> workflowConfigurations,
            @Schema(nullable = true) Integer versionNumber,
            @Schema(nullable = true) String versionStatus,
            @Schema(nullable = true) String workflowUuid) {

        /** The editable content: the draft if there is one, else the published version. */
        public static WorkflowResponse of(WorkflowDetails details) {
            Workflow w = details.workflow();
            WorkflowVersion v = w.editable();
            return new WorkflowResponse(w.id(), w.name(), w.status().wireName(), w.createdAt(),
                    masked(v.definition().tree()), w.published().id(), v.templateContextVariables(), null,
                    details.totalRuns(), masked(v.configurations()), v.versionNumber(), v.status().wireName(),
                    w.workflowUuid().toString());
        }
    }

    @Schema(name = "WorkflowListResponse")
    public record WorkflowListResponse(
            @Schema(required = true) long id,
            @Schema(required = true) String name,
            @Schema(required = true) String status,
            @Schema(required = true, type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt,
            @Schema(required = true) long totalRuns,
            @Schema(nullable = true) Long folderId,
            @Schema(nullable = true) String workflowUuid) {

        static WorkflowListResponse of(WorkflowListItem i) {
            return new WorkflowListResponse(i.id(), i.name(), i.status().wireName(), i.createdAt(), i.totalRuns(),
                    i.folderId(), i.workflowUuid().toString());
        }
    }

    @Schema(name = "WorkflowSummaryResponse")
    public record WorkflowSummaryResponse(@Schema(required = true) long id, @Schema(required = true) String name) {
    }

    @Schema(name = "WorkflowCountResponse")
    public record WorkflowCountResponse(@Schema(required = true) long total, @Schema(required = true) long active,
            @Schema(required = true) long archived) {
    }

    @Schema(name = "WorkflowVersionResponse")
    public record WorkflowVersionResponse(
            @Schema(required = true) long id,
            @Schema(required = true) int versionNumber,
            @Schema(required = true) String status,
            @Schema(required = true, type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt,
            @Schema(nullable = true, type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant publishedAt,
            @Schema(required = true) Map<String, Object> workflowJson,
            @Schema(nullable = true) Map<String, Object> workflowConfigurations,
            @Schema(nullable = true) Map<String, Object> templateContextVariables) {

        static WorkflowVersionResponse of(WorkflowVersion v) {
            return new WorkflowVersionResponse(v.id(), v.versionNumber(), v.status().wireName(), v.createdAt(),
                    v.publishedAt(), masked(v.definition().tree()), masked(v.configurations()),
                    v.templateContextVariables());
        }
    }

    @Schema(name = "PublishWorkflowResponse")
    public record PublishWorkflowResponse(long id, int versionNumber, String status,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant publishedAt) {
    }

    @Schema(name = "WorkflowError")
    public record WorkflowErrorResponse(
            @Schema(required = true, enumeration = {"node", "edge", "workflow"}) String kind,
            @Schema(required = true, nullable = true) String id,
            @Schema(required = true, nullable = true) String field,
            @Schema(required = true) String message) {

        public static WorkflowErrorResponse of(WorkflowError e) {
            return new WorkflowErrorResponse(e.kind().wireName(), e.id(), e.field(), e.message());
        }
    }

    @Schema(name = "ValidateWorkflowResponse")
    public record ValidateWorkflowResponse(@Schema(required = true) boolean isValid,
            @Schema(required = true) List<WorkflowErrorResponse> errors) {

        public static ValidateWorkflowResponse of(List<WorkflowError> errors) {
            return new ValidateWorkflowResponse(errors.isEmpty(), errors.stream().map(WorkflowErrorResponse::of).toList());
        }
    }

    @Schema(name = "WorkflowTemplateResponse")
    public record WorkflowTemplateResponse(
            @Schema(required = true) long id,
            @Schema(required = true) String templateName,
            @Schema(required = true) String templateDescription,
            @Schema(required = true) Map<String, Object> templateJson,
            @Schema(required = true, type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt) {

        static WorkflowTemplateResponse of(WorkflowTemplate t) {
            return new WorkflowTemplateResponse(t.id(), t.name(), t.description(), t.definition().tree(), t.createdAt());
        }
    }
}
