package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.workflow.StarterWorkflows;
import io.smallrye.mutiny.Uni;
import java.util.UUID;

@Singleton
public class DuplicateTemplateService implements DuplicateTemplateUseCase {

    private final CreateWorkflowUseCase create;

    public DuplicateTemplateService(CreateWorkflowUseCase create) {
        this.create = create;
    }

    @Override
    public Uni<WorkflowDetails> duplicate(Principal principal, long templateId, String workflowName) {
        var template = StarterWorkflows.template(templateId)
                .orElseThrow(() -> new ResourceNotFoundException("Template not found"));
        return create.create(new CreateWorkflowCommand(principal, workflowName,
                template.definition().withTriggerPaths(current -> current == null ? null : UUID.randomUUID().toString()),
                null, template.variables())); // its example values: a test call says them, never {{braces}}
    }
}
