package dev.voiceagent.application.workflow;

import io.smallrye.mutiny.Uni;

public interface CreateWorkflowUseCase {

    Uni<WorkflowDetails> create(CreateWorkflowCommand command);
}
