package dev.voiceagent.domain.workflow;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/** One numbered version of a workflow's definition with its configurations and template variables. */
public record WorkflowVersion(
        Long id,
        int versionNumber,
        VersionStatus status,
        WorkflowDefinition definition,
        Map<String, Object> configurations,
        Map<String, Object> templateContextVariables,
        Instant createdAt,
        Instant publishedAt) {

    public WorkflowVersion {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(createdAt, "createdAt");
        configurations = configurations == null ? null : JsonTree.asMap(JsonTree.freeze(configurations));
        templateContextVariables = templateContextVariables == null ? null
                : JsonTree.asMap(JsonTree.freeze(templateContextVariables));
    }

    /** Whether this version carries the same content (definition, configurations, variables). */
    public boolean sameContentAs(WorkflowDefinition otherDefinition, Map<String, Object> otherConfigurations,
            Map<String, Object> otherVariables) {
        return definition.equals(otherDefinition) && Objects.equals(configurations, otherConfigurations)
                && Objects.equals(templateContextVariables, otherVariables);
    }
}
