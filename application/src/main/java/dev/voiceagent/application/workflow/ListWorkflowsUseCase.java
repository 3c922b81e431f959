package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.workflow.WorkflowStatus;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Set;

public interface ListWorkflowsUseCase {

    Uni<List<WorkflowListItem>> list(Principal principal, Set<WorkflowStatus> statuses);
}
