package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;

@Singleton
public class GetWorkflowRunService implements GetWorkflowRunUseCase {

    private final WorkflowRepository workflows;
    private final WorkflowRunRepository runs;

    public GetWorkflowRunService(WorkflowRepository workflows, WorkflowRunRepository runs) {
        this.workflows = workflows;
        this.runs = runs;
    }

    @Override
    public Uni<WorkflowRun> get(Principal principal, long workflowId, long runId) {
        return Workflows.find(workflows, principal.organizationId(), workflowId)
                .chain(w -> runs.find(principal.organizationId(), workflowId, runId))
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException("Run " + runId + " not found")));
    }
}
