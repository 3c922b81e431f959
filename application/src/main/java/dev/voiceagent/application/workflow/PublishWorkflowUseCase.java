package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;

public interface PublishWorkflowUseCase {

    Uni<WorkflowVersion> publish(Principal principal, long workflowId);
}
