package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.tool.ToolChecks;
import dev.voiceagent.domain.workflow.WorkflowError;
import dev.voiceagent.domain.workflow.WorkflowValidator;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;

@Singleton
public class ValidateWorkflowService implements ValidateWorkflowUseCase {

    private final WorkflowRepository workflows;
    private final ToolChecks tools;

    public ValidateWorkflowService(WorkflowRepository workflows, ToolChecks tools) {
        this.workflows = workflows;
        this.tools = tools;
    }

    @Override
    public Uni<List<WorkflowError>> validate(Principal principal, long workflowId) {
        long org = principal.organizationId();
        return Workflows.find(workflows, org, workflowId).chain(workflow -> Uni.combine().all()
                .unis(workflows.triggerPathsInUse(org, workflowId), tools.check(org, workflow.editable().definition()))
                .with((inUse, toolErrors) -> {
                    List<WorkflowError> errors = new ArrayList<>(WorkflowValidator.validate(
                            workflow.editable().definition(), inUse));
                    errors.addAll(toolErrors);
                    return List.copyOf(errors);
                }));
    }
}
