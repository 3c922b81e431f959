package dev.voiceagent.application.workflow;

import dev.voiceagent.domain.workflow.Workflow;

/** A workflow with the number of runs it has had. */
public record WorkflowDetails(Workflow workflow, long totalRuns) {
}
