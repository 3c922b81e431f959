package dev.voiceagent.adapters.rest.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.adapters.rest.shared.RequestValidationException;
import dev.voiceagent.adapters.rest.shared.ValidationError;
import dev.voiceagent.adapters.rest.workflow.WorkflowRunResponses.CreateWorkflowRunResponse;
import dev.voiceagent.adapters.rest.workflow.WorkflowRunResponses.WorkflowRunResponse;
import dev.voiceagent.adapters.rest.workflow.WorkflowRunResponses.WorkflowRunsResponse;
import dev.voiceagent.application.workflow.CreateWorkflowRunUseCase;
import dev.voiceagent.application.workflow.GetWorkflowRunUseCase;
import dev.voiceagent.application.workflow.ListWorkflowRunsUseCase;
import dev.voiceagent.application.workflow.RunPageQuery;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.workflow.RunFilter;
import io.smallrye.mutiny.Uni;
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
import java.util.List;

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

    public WorkflowRunResource(Caller caller, CreateWorkflowRunUseCase create, ListWorkflowRunsUseCase list,
            GetWorkflowRunUseCase get, ObjectMapper json) {
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
        List<Object> rawFilters = parseFilters(filters);
        RunPageQuery query = new RunPageQuery(page, limit, RunFilter.parse(rawFilters), sortBy(sortBy),
                ascending(sortOrder));
        return list.list(caller.principal(), workflowId, query).map(result -> new WorkflowRunsResponse(
                result.runs().stream().map(WorkflowRunResponse::of).toList(), result.totalCount(), page, limit,
                (result.totalCount() + limit - 1) / limit, filters == null ? null : rawFilters));
    }

    @GET
    @Path("/{run_id}")
    public Uni<WorkflowRunResponse> get(@PathParam("workflow_id") long workflowId, @PathParam("run_id") long runId) {
        return get.get(caller.principal(), workflowId, runId).map(WorkflowRunResponse::of);
    }

    private List<Object> parseFilters(String filters) {
        if (filters == null || filters.isBlank()) {
            return List.of();
        }
        try {
            Object parsed = json.readValue(filters, Object.class);
            if (!(parsed instanceof List<?> list)) {
                throw new DomainRuleViolation("Invalid filter format");
            }
            return List.copyOf(list);
        } catch (JsonProcessingException e) {
            throw new DomainRuleViolation("Invalid filter format");
        }
    }

    private static RunPageQuery.SortBy sortBy(String value) {
        return switch (value) {
            case "created_at" -> RunPageQuery.SortBy.CREATED_AT;
            case "duration" -> RunPageQuery.SortBy.DURATION;
            default -> throw new RequestValidationException(ValidationError.of(List.of("query", "sort_by"),
                    "Input should be 'created_at' or 'duration'", "enum", value));
        };
    }

    private static boolean ascending(String value) {
        return switch (value) {
            case "asc" -> true;
            case "desc" -> false;
            default -> throw new RequestValidationException(ValidationError.of(List.of("query", "sort_order"),
                    "Input should be 'asc' or 'desc'", "enum", value));
        };
    }
}
