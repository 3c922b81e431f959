package dev.voiceagent.application.workflow;

public record WorkflowCounts(long total, long active, long archived) {
}
