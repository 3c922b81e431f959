package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

@Singleton
public class ListWorkflowRunsService implements ListWorkflowRunsUseCase {

    private final WorkflowRepository workflows;
    private final WorkflowRunRepository runs;

    public ListWorkflowRunsService(WorkflowRepository workflows, WorkflowRunRepository runs) {
        this.workflows = workflows;
        this.runs = runs;
    }

    @Override
    public Uni<RunPage> list(Principal principal, long workflowId, RunPageQuery query) {
        return Workflows.find(workflows, principal.organizationId(), workflowId)
                .chain(w -> runs.page(principal.organizationId(), workflowId, query));
    }
}
