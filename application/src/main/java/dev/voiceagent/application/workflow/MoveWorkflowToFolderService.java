package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.folder.FolderRepository;
import dev.voiceagent.application.folder.Folders;
import io.smallrye.mutiny.Uni;

/** Files a workflow in a folder of its organization, or unfiles it (null). */
@Singleton
public class MoveWorkflowToFolderService implements MoveWorkflowToFolderUseCase {

    private final WorkflowRepository workflows;
    private final FolderRepository folders;

    public MoveWorkflowToFolderService(WorkflowRepository workflows, FolderRepository folders) {
        this.workflows = workflows;
        this.folders = folders;
    }

    @Override
    public Uni<WorkflowListItem> move(Principal principal, long workflowId, Long folderId) {
        long org = principal.organizationId();
        Uni<Void> folderExists = folderId == null ? Uni.createFrom().voidItem()
                : Folders.find(folders, org, folderId).replaceWithVoid();
        return Workflows.find(workflows, org, workflowId)
                .call(() -> folderExists)
                .chain(before -> workflows.save(before, before.inFolder(folderId)))
                .chain(saved -> workflows.totalRuns(org, workflowId).map(n -> new WorkflowListItem(saved.id(),
                        saved.name(), saved.status(), saved.createdAt(), n, saved.folderId(), saved.workflowUuid())));
    }
}
