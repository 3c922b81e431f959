package dev.voiceagent.application.workflow;

import dev.voiceagent.domain.workflow.WorkflowStatus;
import java.time.Instant;
import java.util.UUID;

/** A row of the workflow list. */
public record WorkflowListItem(long id, String name, WorkflowStatus status, Instant createdAt, long totalRuns,
        Long folderId, UUID workflowUuid) {
}
