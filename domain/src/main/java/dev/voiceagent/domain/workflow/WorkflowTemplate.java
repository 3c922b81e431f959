package dev.voiceagent.domain.workflow;

import java.time.Instant;
import java.util.Map;

/**
 * A built-in starting point that an organization can copy, with example values of its {{variables}} (a copy's
 * template context variables: what its test calls are told until the organization changes them).
 */
public record WorkflowTemplate(long id, String name, String description, WorkflowDefinition definition,
        Instant createdAt, Map<String, Object> variables) {

    public WorkflowTemplate {
        variables = Map.copyOf(variables);
    }
}
