package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;

public interface CreateWorkflowRunUseCase {

    /** A run bound to the draft if there is one, else the published version. */
    Uni<WorkflowRun> start(Principal principal, long workflowId, String mode, String name);
}
