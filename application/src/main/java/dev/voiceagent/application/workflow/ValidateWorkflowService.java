package dev.voiceagent.application.workflow;

import dev.voiceagent.application.auth.Principal;
import dev.voiceagent.domain.workflow.WorkflowError;
import dev.voiceagent.domain.workflow.WorkflowValidator;
import io.smallrye.mutiny.Uni;
import java.util.List;

public class ValidateWorkflowService implements ValidateWorkflowUseCase {

    private final WorkflowRepository workflows;

    public ValidateWorkflowService(WorkflowRepository workflows) {
        this.workflows = workflows;
    }

    @Override
    public Uni<List<WorkflowError>> validate(Principal principal, long workflowId) {
        long org = principal.organizationId();
        return Workflows.find(workflows, org, workflowId).chain(workflow -> workflows.triggerPathsInUse(org, workflowId)
                .map(inUse -> WorkflowValidator.validate(workflow.editable().definition(), inUse)));
    }
}
