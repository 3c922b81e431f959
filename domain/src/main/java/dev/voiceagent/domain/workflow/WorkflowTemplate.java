package dev.voiceagent.domain.workflow;

import java.time.Instant;

/** A built-in starting point that an organization can copy. */
public record WorkflowTemplate(long id, String name, String description, WorkflowDefinition definition,
        Instant createdAt) {
}
