package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface DuplicateWorkflowUseCase {

    Uni<WorkflowDetails> duplicate(Principal principal, long workflowId);
}
