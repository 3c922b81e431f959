package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

@Singleton
public class CountWorkflowsService implements CountWorkflowsUseCase {

    private final WorkflowRepository workflows;

    public CountWorkflowsService(WorkflowRepository workflows) {
        this.workflows = workflows;
    }

    @Override
    public Uni<WorkflowCounts> count(Principal principal) {
        return workflows.count(principal.organizationId());
    }
}
