package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface MoveWorkflowToFolderUseCase {

    Uni<WorkflowListItem> move(Principal principal, long workflowId, Long folderId);
}
