package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

@Singleton
public class GetWorkflowService implements GetWorkflowUseCase {

    private final WorkflowRepository workflows;

    public GetWorkflowService(WorkflowRepository workflows) {
        this.workflows = workflows;
    }

    @Override
    public Uni<WorkflowDetails> get(Principal principal, long workflowId) {
        return Workflows.find(workflows, principal.organizationId(), workflowId)
                .chain(w -> Workflows.details(workflows, w));
    }
}
