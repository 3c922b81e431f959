package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import java.util.Map;
import java.util.Objects;

/** A partial update: null fields are left as they are. */
public record UpdateWorkflowCommand(Principal principal, long workflowId, String name, WorkflowDefinition definition,
        Map<String, Object> configurations, Map<String, Object> templateContextVariables) {

    public UpdateWorkflowCommand {
        Objects.requireNonNull(principal, "principal");
        name = name == null ? null : Workflow.checkName(name);
    }
}
