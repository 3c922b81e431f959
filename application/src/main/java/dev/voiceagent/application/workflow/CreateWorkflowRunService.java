package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import java.time.Clock;

@Singleton
public class CreateWorkflowRunService implements CreateWorkflowRunUseCase {

    private final WorkflowRepository workflows;
    private final WorkflowRunRepository runs;
    private final Clock clock;

    public CreateWorkflowRunService(WorkflowRepository workflows, WorkflowRunRepository runs, Clock clock) {
        this.workflows = workflows;
        this.runs = runs;
        this.clock = clock;
    }

    @Override
    public Uni<WorkflowRun> start(Principal principal, long workflowId, String mode, String name) {
        long org = principal.organizationId();
        return Workflows.find(workflows, org, workflowId).chain(workflow -> runs.insert(
                WorkflowRun.start(org, workflowId, workflow.editable(), name, mode, clock.instant())));
    }
}
