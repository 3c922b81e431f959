package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;
import java.util.List;

public interface ListWorkflowVersionsUseCase {

    Uni<List<WorkflowVersion>> versions(Principal principal, long workflowId, int limit, int offset);
}
