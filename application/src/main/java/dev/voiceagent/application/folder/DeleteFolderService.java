package dev.voiceagent.application.folder;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

@Singleton
public class DeleteFolderService implements DeleteFolderUseCase {

    private final FolderRepository folders;

    public DeleteFolderService(FolderRepository folders) {
        this.folders = folders;
    }

    @Override
    public Uni<Void> delete(Principal principal, long folderId) {
        return Folders.find(folders, principal.organizationId(), folderId)
                .chain(folder -> folders.delete(principal.organizationId(), folderId));
    }
}
