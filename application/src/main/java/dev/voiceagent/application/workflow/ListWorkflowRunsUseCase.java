package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface ListWorkflowRunsUseCase {

    Uni<RunPage> list(Principal principal, long workflowId, RunPageQuery query);
}
