package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.workflow.WorkflowStatus;
import io.smallrye.mutiny.Uni;

@Singleton
public class ChangeWorkflowStatusService implements ChangeWorkflowStatusUseCase {

    private final WorkflowRepository workflows;

    public ChangeWorkflowStatusService(WorkflowRepository workflows) {
        this.workflows = workflows;
    }

    @Override
    public Uni<WorkflowDetails> changeStatus(Principal principal, long workflowId, WorkflowStatus status) {
        long org = principal.organizationId();
        return Workflows.find(workflows, org, workflowId)
                .chain(before -> workflows.save(before, before.withStatus(status)))
                .chain(saved -> Workflows.details(workflows, saved));
    }
}
