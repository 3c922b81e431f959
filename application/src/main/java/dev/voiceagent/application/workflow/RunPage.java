package dev.voiceagent.application.workflow;

import dev.voiceagent.domain.workflow.WorkflowRun;
import java.util.List;

public record RunPage(List<WorkflowRun> runs, long totalCount) {
}
