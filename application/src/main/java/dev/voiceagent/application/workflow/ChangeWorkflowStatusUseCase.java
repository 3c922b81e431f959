package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.workflow.WorkflowStatus;
import io.smallrye.mutiny.Uni;

public interface ChangeWorkflowStatusUseCase {

    Uni<WorkflowDetails> changeStatus(Principal principal, long workflowId, WorkflowStatus status);
}
