package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;
import java.util.List;

@Singleton
public class ListWorkflowVersionsService implements ListWorkflowVersionsUseCase {

    private final WorkflowRepository workflows;

    public ListWorkflowVersionsService(WorkflowRepository workflows) {
        this.workflows = workflows;
    }

    @Override
    public Uni<List<WorkflowVersion>> versions(Principal principal, long workflowId, int limit, int offset) {
        return Workflows.find(workflows, principal.organizationId(), workflowId)
                .chain(w -> workflows.versions(principal.organizationId(), workflowId, limit, offset));
    }
}
