package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.workflow.StarterWorkflows;
import io.smallrye.mutiny.Uni;

@Singleton
public class CreateWorkflowFromDescriptionService implements CreateWorkflowFromDescriptionUseCase {

    private final CreateWorkflowUseCase create;

    public CreateWorkflowFromDescriptionService(CreateWorkflowUseCase create) {
        this.create = create;
    }

    @Override
    public Uni<WorkflowDetails> create(Principal principal, String callType, String useCase, String activityDescription) {
        String name = useCase.strip();
        return create.create(new CreateWorkflowCommand(principal, name.length() > 255 ? name.substring(0, 255) : name,
                StarterWorkflows.fromDescription(callType, useCase, activityDescription), null, null));
    }
}
