package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.workflow.WorkflowStatus;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Set;

@Singleton
public class ListWorkflowsService implements ListWorkflowsUseCase {

    private final WorkflowRepository workflows;

    public ListWorkflowsService(WorkflowRepository workflows) {
        this.workflows = workflows;
    }

    @Override
    public Uni<List<WorkflowListItem>> list(Principal principal, Set<WorkflowStatus> statuses) {
        return workflows.list(principal.organizationId(), statuses);
    }
}
