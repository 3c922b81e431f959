package dev.voiceagent.adapters.rest.workflow;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.adapters.rest.auth.PublicEndpoint;
import dev.voiceagent.adapters.rest.shared.RequestValidationException;
import dev.voiceagent.adapters.rest.shared.ValidationError;
import dev.voiceagent.adapters.rest.workflow.WorkflowResponses.PublishWorkflowResponse;
import dev.voiceagent.adapters.rest.workflow.WorkflowResponses.ValidateWorkflowResponse;
import dev.voiceagent.adapters.rest.workflow.WorkflowResponses.WorkflowCountResponse;
import dev.voiceagent.adapters.rest.workflow.WorkflowResponses.WorkflowListResponse;
import dev.voiceagent.adapters.rest.workflow.WorkflowResponses.WorkflowResponse;
import dev.voiceagent.adapters.rest.workflow.WorkflowResponses.WorkflowSummaryResponse;
import dev.voiceagent.adapters.rest.workflow.WorkflowResponses.WorkflowTemplateResponse;
import dev.voiceagent.adapters.rest.workflow.WorkflowResponses.WorkflowVersionResponse;
import dev.voiceagent.application.workflow.CreateAmbientNoiseUploadUrlUseCase;
import dev.voiceagent.application.workflow.ChangeWorkflowStatusUseCase;
import dev.voiceagent.application.workflow.CountWorkflowsUseCase;
import dev.voiceagent.application.workflow.CreateDraftUseCase;
import dev.voiceagent.application.workflow.CreateWorkflowCommand;
import dev.voiceagent.application.workflow.CreateWorkflowFromDescriptionUseCase;
import dev.voiceagent.application.workflow.CreateWorkflowUseCase;
import dev.voiceagent.application.workflow.DuplicateTemplateUseCase;
import dev.voiceagent.application.workflow.DuplicateWorkflowUseCase;
import dev.voiceagent.application.workflow.GetWorkflowUseCase;
import dev.voiceagent.application.workflow.InvalidWorkflowException;
import dev.voiceagent.application.workflow.ListWorkflowVersionsUseCase;
import dev.voiceagent.application.workflow.ListWorkflowsUseCase;
import dev.voiceagent.application.workflow.MoveWorkflowToFolderUseCase;
import dev.voiceagent.application.workflow.PublishWorkflowUseCase;
import dev.voiceagent.application.workflow.UpdateWorkflowCommand;
import dev.voiceagent.application.workflow.UpdateWorkflowUseCase;
import dev.voiceagent.application.workflow.ValidateWorkflowUseCase;
import dev.voiceagent.domain.workflow.StarterWorkflows;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import dev.voiceagent.domain.workflow.WorkflowStatus;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.jboss.resteasy.reactive.RestMulti;

/** Agents: definitions, versions, status, folders, duplicates and templates. */
@Path("/api/v1/workflow")
public class WorkflowResource {

    public record CreateWorkflowRequest(@NotBlank @Size(max = 255) String name,
            @NotNull Map<String, Object> workflowDefinition) {
    }

    public record CreateWorkflowTemplateRequest(
            @NotNull @Pattern(regexp = "inbound|outbound", message = "Input should be 'inbound' or 'outbound'") String callType,
            @NotBlank String useCase, @NotBlank String activityDescription) {
    }

    public record UpdateWorkflowRequest(@Size(min = 1, max = 255) String name, Map<String, Object> workflowDefinition,
            Map<String, Object> templateContextVariables, Map<String, Object> workflowConfigurations) {
    }

    public record UpdateWorkflowStatusRequest(@NotNull String status) {
    }

    public record MoveWorkflowToFolderRequest(Long folderId) {
    }

    public record AmbientNoiseUploadRequest(@NotNull Long workflowId, @NotBlank String filename, String mimeType,
            @NotNull @Min(1) @Max(10_485_760) Long fileSize) {
    }

    public record AmbientNoiseUploadResponse(String uploadUrl, String storageKey, String storageBackend) {
    }

    public record DuplicateTemplateRequest(@NotNull Long templateId, @NotBlank @Size(max = 255) String workflowName) {
    }

    private final Caller caller;
    private final CreateWorkflowUseCase create;
    private final CreateWorkflowFromDescriptionUseCase createFromDescription;
    private final GetWorkflowUseCase get;
    private final ListWorkflowsUseCase list;
    private final CountWorkflowsUseCase count;
    private final UpdateWorkflowUseCase update;
    private final ChangeWorkflowStatusUseCase changeStatus;
    private final MoveWorkflowToFolderUseCase move;
    private final DuplicateWorkflowUseCase duplicate;
    private final ValidateWorkflowUseCase validate;
    private final ListWorkflowVersionsUseCase versions;
    private final PublishWorkflowUseCase publish;
    private final CreateDraftUseCase createDraft;
    private final DuplicateTemplateUseCase duplicateTemplate;
    private final WorkflowInsights insights;
    private final CreateAmbientNoiseUploadUrlUseCase ambientNoise;

    @SuppressWarnings("checkstyle:ParameterNumber")
    public WorkflowResource(Caller caller, CreateWorkflowUseCase create,
            CreateWorkflowFromDescriptionUseCase createFromDescription, GetWorkflowUseCase get, ListWorkflowsUseCase list,
            CountWorkflowsUseCase count, UpdateWorkflowUseCase update, ChangeWorkflowStatusUseCase changeStatus,
            MoveWorkflowToFolderUseCase move, DuplicateWorkflowUseCase duplicate, ValidateWorkflowUseCase validate,
            ListWorkflowVersionsUseCase versions, PublishWorkflowUseCase publish, CreateDraftUseCase createDraft,
            DuplicateTemplateUseCase duplicateTemplate, WorkflowInsights insights,
            CreateAmbientNoiseUploadUrlUseCase ambientNoise) {
        this.insights = insights;
        this.ambientNoise = ambientNoise;
        this.caller = caller;
        this.create = create;
        this.createFromDescription = createFromDescription;
        this.get = get;
        this.list = list;
        this.count = count;
        this.update = update;
        this.changeStatus = changeStatus;
        this.move = move;
        this.duplicate = duplicate;
        this.validate = validate;
        this.versions = versions;
        this.publish = publish;
        this.createDraft = createDraft;
        this.duplicateTemplate = duplicateTemplate;
    }

    @POST
    @Path("/create/definition")
    public Uni<WorkflowResponse> createDefinition(@NotNull @Valid CreateWorkflowRequest body) {
        return create.create(new CreateWorkflowCommand(caller.principal(), body.name(),
                WorkflowDefinition.of(body.workflowDefinition()), null, null)).map(WorkflowResponse::of);
    }

    @POST
    @Path("/create/template")
    public Uni<WorkflowResponse> createFromTemplate(@NotNull @Valid CreateWorkflowTemplateRequest body) {
        return createFromDescription.create(caller.principal(), body.callType(), body.useCase(),
                body.activityDescription()).map(WorkflowResponse::of);
    }

    @GET
    @Path("/count")
    public Uni<WorkflowCountResponse> count() {
        return count.count(caller.principal()).map(c -> new WorkflowCountResponse(c.total(), c.active(), c.archived()));
    }

    @GET
    @Path("/fetch")
    public Uni<List<WorkflowListResponse>> fetch(@QueryParam("status") String status) {
        return list.list(caller.principal(), statuses(status))
                .map(items -> items.stream().map(WorkflowListResponse::of).toList());
    }

    @GET
    @Path("/summary")
    public Uni<List<WorkflowSummaryResponse>> summary(@QueryParam("status") String status) {
        return list.list(caller.principal(), statuses(status))
                .map(items -> items.stream().map(i -> new WorkflowSummaryResponse(i.id(), i.name())).toList());
    }

    @GET
    @Path("/fetch/{workflow_id}")
    public Uni<WorkflowResponse> fetchOne(@PathParam("workflow_id") long workflowId) {
        return get.get(caller.principal(), workflowId).map(WorkflowResponse::of);
    }

    @PUT
    @Path("/{workflow_id}")
    public Uni<WorkflowResponse> update(@PathParam("workflow_id") long workflowId,
            @NotNull @Valid UpdateWorkflowRequest body) {
        WorkflowDefinition definition = body.workflowDefinition() == null ? null
                : WorkflowDefinition.of(body.workflowDefinition());
        return update.update(new UpdateWorkflowCommand(caller.principal(), workflowId, body.name(), definition,
                body.workflowConfigurations(), body.templateContextVariables())).map(WorkflowResponse::of);
    }

    @PUT
    @Path("/{workflow_id}/status")
    public Uni<WorkflowResponse> status(@PathParam("workflow_id") long workflowId,
            @NotNull @Valid UpdateWorkflowStatusRequest body) {
        WorkflowStatus status = WorkflowStatus.fromWireName(body.status()).orElseThrow(() -> new RequestValidationException(
                ValidationError.of(List.of("body", "status"), "Input should be 'active' or 'archived'", "enum",
                        body.status())));
        return changeStatus.changeStatus(caller.principal(), workflowId, status).map(WorkflowResponse::of);
    }

    @PUT
    @Path("/{workflow_id}/folder")
    public Uni<WorkflowListResponse> folder(@PathParam("workflow_id") long workflowId,
            @NotNull @Valid MoveWorkflowToFolderRequest body) {
        return move.move(caller.principal(), workflowId, body.folderId()).map(WorkflowListResponse::of);
    }

    @POST
    @Path("/{workflow_id}/duplicate")
    public Uni<WorkflowResponse> duplicate(@PathParam("workflow_id") long workflowId) {
        return duplicate.duplicate(caller.principal(), workflowId).map(WorkflowResponse::of);
    }

    @POST
    @Path("/{workflow_id}/validate")
    @APIResponse(responseCode = "200", description = "The definition is valid",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = ValidateWorkflowResponse.class)))
    public Uni<ValidateWorkflowResponse> validate(@PathParam("workflow_id") long workflowId) {
        return validate.validate(caller.principal(), workflowId).map(errors -> {
            if (!errors.isEmpty()) {
                throw new InvalidWorkflowException(errors, false);
            }
            return ValidateWorkflowResponse.of(errors);
        });
    }

    @GET
    @Path("/{workflow_id}/versions")
    public Uni<List<WorkflowVersionResponse>> versions(@PathParam("workflow_id") long workflowId,
            @QueryParam("limit") @DefaultValue("50") @Min(1) @Max(100) int limit,
            @QueryParam("offset") @DefaultValue("0") @Min(0) int offset) {
        return versions.versions(caller.principal(), workflowId, limit, offset)
                .map(list -> list.stream().map(WorkflowVersionResponse::of).toList());
    }

    @POST
    @Path("/{workflow_id}/publish")
    public Uni<PublishWorkflowResponse> publish(@PathParam("workflow_id") long workflowId) {
        return publish.publish(caller.principal(), workflowId).map(v -> new PublishWorkflowResponse(v.id(),
                v.versionNumber(), v.status().wireName(), v.publishedAt()));
    }

    @POST
    @Path("/{workflow_id}/create-draft")
    public Uni<WorkflowVersionResponse> createDraft(@PathParam("workflow_id") long workflowId) {
        return createDraft.createDraft(caller.principal(), workflowId).map(WorkflowVersionResponse::of);
    }

    @POST
    @Path("/ambient-noise/upload-url")
    public Uni<AmbientNoiseUploadResponse> ambientNoiseUploadUrl(@NotNull @Valid AmbientNoiseUploadRequest body) {
        return ambientNoise.create(caller.principal(), body.workflowId(), body.filename(),
                        body.mimeType() == null ? "audio/wav" : body.mimeType(), body.fileSize())
                .map(u -> new AmbientNoiseUploadResponse(u.uploadUrl(), u.storageKey(), u.storageBackend()));
    }

    @GET
    @Path("/templates")
    @PublicEndpoint
    @NonBlocking
    public List<WorkflowTemplateResponse> templates() {
        return StarterWorkflows.templates().stream().map(WorkflowTemplateResponse::of).toList();
    }

    @POST
    @Path("/templates/duplicate")
    public Uni<WorkflowResponse> duplicateTemplate(@NotNull @Valid DuplicateTemplateRequest body) {
        return duplicateTemplate.duplicate(caller.principal(), body.templateId(), body.workflowName())
                .map(WorkflowResponse::of);
    }

    @GET
    @Path("/{workflow_id}/report")
    @Produces("text/csv")
    @APIResponse(responseCode = "200", description = "CSV attachment workflow_<id>_report.csv, streamed",
            content = @Content(mediaType = "text/csv"))
    public RestMulti<String> report(@PathParam("workflow_id") long workflowId,
            @QueryParam("start_date") String startDate, @QueryParam("end_date") String endDate) {
        return insights.report(caller.principal(), workflowId, startDate, endDate);
    }

    @GET
    @Path("/{workflow_id}/agent-setup")
    public Uni<WorkflowInsights.AgentSetupResponse> agentSetup(@PathParam("workflow_id") long workflowId) {
        return insights.agentSetup(caller.principal(), workflowId);
    }

    @POST
    @Path("/{workflow_id}/agent-preview")
    public Uni<WorkflowInsights.AgentPreviewResponse> agentPreview(@PathParam("workflow_id") long workflowId,
            @Valid WorkflowInsights.AgentPreviewRequest body) {
        return insights.agentPreview(caller.principal(), workflowId, body);
    }

    @GET
    @Path("/{workflow_id}/pilot-review")
    public Uni<WorkflowInsights.PilotReviewResponse> pilotReview(@PathParam("workflow_id") long workflowId) {
        return insights.pilotReview(caller.principal(), workflowId);
    }

    /** One value or a comma list of active|archived; an unknown or blank token is a 422 naming the allowed values. */
    static Set<WorkflowStatus> statuses(String filter) {
        if (filter == null) {
            return Set.of();
        }
        Set<WorkflowStatus> statuses = EnumSet.noneOf(WorkflowStatus.class);
        for (String token : filter.split(",", -1)) {
            var status = WorkflowStatus.fromWireName(token.strip());
            if (status.isEmpty()) {
                throw new RequestValidationException(ValidationError.of(List.of("query", "status"),
                        "Invalid workflow status filter: " + List.of(filter.split(",", -1))
                                + ". Allowed values: ['active', 'archived'].", "value_error", filter));
            }
            statuses.add(status.get());
        }
        return statuses;
    }
}
