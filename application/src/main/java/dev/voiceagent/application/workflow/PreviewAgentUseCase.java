package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;
import java.util.Map;

public interface PreviewAgentUseCase {

    Uni<AgentPreview> preview(Principal principal, long workflowId, Map<String, Object> contextVariables);
}
