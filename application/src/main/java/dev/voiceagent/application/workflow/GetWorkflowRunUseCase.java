package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;

public interface GetWorkflowRunUseCase {

    Uni<WorkflowRun> get(Principal principal, long workflowId, long runId);
}
