package dev.voiceagent.application.workflow;

import io.smallrye.mutiny.Uni;

public interface UpdateWorkflowUseCase {

    Uni<WorkflowDetails> update(UpdateWorkflowCommand command);
}
