package dev.voiceagent.adapters.rest.workflow;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.adapters.rest.workflow.WorkflowRunResponses.CreateWorkflowRunResponse;
import dev.voiceagent.adapters.rest.workflow.WorkflowRunResponses.WorkflowRunResponse;
import dev.voiceagent.adapters.rest.workflow.WorkflowRunResponses.WorkflowRunsResponse;
import dev.voiceagent.application.workflow.CreateWorkflowRunUseCase;
import dev.voiceagent.application.workflow.GetWorkflowRunUseCase;
import dev.voiceagent.application.workflow.ListWorkflowRunsUseCase;
import dev.voiceagent.adapters.rest.shared.PublicBaseUrl;
import dev.voiceagent.application.workflow.RunArtifactUseCases.PublicArtifactLinksUseCase;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.core.Context;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;

/** Runs of one workflow: start a test run, list with filters and sorting, read one. */
@Path("/api/v1/workflow/{workflow_id}/runs")
public class WorkflowRunResource {

    public record CreateWorkflowRunRequest(@NotBlank String mode, @NotNull @Size(max = 255) String name) {
    }

    private final Caller caller;
    private final CreateWorkflowRunUseCase create;
    private final ListWorkflowRunsUseCase list;
    private final GetWorkflowRunUseCase get;
    private final ObjectMapper json;
    private final PublicArtifactLinksUseCase links;
    private final PublicBaseUrl publicBaseUrl;

    @Context
    HttpServerRequest request;

    public WorkflowRunResource(Caller caller, CreateWorkflowRunUseCase create, ListWorkflowRunsUseCase list,
            GetWorkflowRunUseCase get, ObjectMapper json, PublicArtifactLinksUseCase links, PublicBaseUrl publicBaseUrl) {
        this.links = links;
        this.publicBaseUrl = publicBaseUrl;
        this.caller = caller;
        this.create = create;
        this.list = list;
        this.get = get;
        this.json = json;
    }

    @POST
    public Uni<CreateWorkflowRunResponse> create(@PathParam("workflow_id") long workflowId,
            @NotNull @Valid CreateWorkflowRunRequest body) {
        return create.start(caller.principal(), workflowId, body.mode(), body.name()).map(CreateWorkflowRunResponse::of);
    }

    @GET
    public Uni<WorkflowRunsResponse> list(@PathParam("workflow_id") long workflowId,
            @QueryParam("page") @DefaultValue("1") @Min(1) int page,
            @QueryParam("limit") @DefaultValue("50") @Min(1) @Max(100) int limit,
            @QueryParam("filters") String filters,
            @QueryParam("sort_by") @DefaultValue("created_at") String sortBy,
            @QueryParam("sort_order") @DefaultValue("desc") String sortOrder) {
        RunPageParameters params = RunPageParameters.parse(json, page, limit, filters, sortBy, sortOrder);
        String base = publicBaseUrl.of(request);
        return list.list(caller.principal(), workflowId, params.query()).map(result -> new WorkflowRunsResponse(
                result.runs().stream().map(r -> WorkflowRunResponse.of(r, links.tokens(r), base)).toList(),
                result.totalCount(), page, limit,
                RunPageParameters.totalPages(result.totalCount(), limit), filters == null ? null : params.rawFilters()));
    }

    @GET
    @Path("/{run_id}")
    public Uni<WorkflowRunResponse> get(@PathParam("workflow_id") long workflowId, @PathParam("run_id") long runId) {
        String base = publicBaseUrl.of(request);
        return get.get(caller.principal(), workflowId, runId).map(r -> WorkflowRunResponse.of(r, links.tokens(r), base));
    }
}
