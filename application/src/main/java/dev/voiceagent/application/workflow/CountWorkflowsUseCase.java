package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface CountWorkflowsUseCase {

    Uni<WorkflowCounts> count(Principal principal);
}
