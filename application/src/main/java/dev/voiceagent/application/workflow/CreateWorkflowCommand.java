package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import java.util.Map;
import java.util.Objects;

public record CreateWorkflowCommand(Principal principal, String name, WorkflowDefinition definition,
        Map<String, Object> configurations, Map<String, Object> templateContextVariables) {

    public CreateWorkflowCommand {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(definition, "definition");
        name = Workflow.checkName(name);
    }
}
