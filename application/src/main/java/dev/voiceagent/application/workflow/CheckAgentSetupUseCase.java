package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface CheckAgentSetupUseCase {

    Uni<AgentSetup> checklist(Principal principal, long workflowId);
}
