package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface GetWorkflowUseCase {

    Uni<WorkflowDetails> get(Principal principal, long workflowId);
}
