package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;
import java.util.UUID;

/** "<name> - Duplicate" with the draft-or-published content and new trigger paths. */
@Singleton
public class DuplicateWorkflowService implements DuplicateWorkflowUseCase {

    private final WorkflowRepository workflows;
    private final CreateWorkflowUseCase create;

    public DuplicateWorkflowService(WorkflowRepository workflows, CreateWorkflowUseCase create) {
        this.workflows = workflows;
        this.create = create;
    }

    @Override
    public Uni<WorkflowDetails> duplicate(Principal principal, long workflowId) {
        return Workflows.find(workflows, principal.organizationId(), workflowId).chain(original -> {
            WorkflowVersion source = original.editable();
            String name = original.name() + " - Duplicate";
            return create.create(new CreateWorkflowCommand(principal,
                    name.length() > 255 ? name.substring(0, 255) : name,
                    source.definition().withTriggerPaths(current -> current == null ? null : UUID.randomUUID().toString()),
                    source.configurations(), source.templateContextVariables()));
        });
    }
}
