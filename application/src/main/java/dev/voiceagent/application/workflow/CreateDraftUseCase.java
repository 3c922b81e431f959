package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;

public interface CreateDraftUseCase {

    Uni<WorkflowVersion> createDraft(Principal principal, long workflowId);
}
