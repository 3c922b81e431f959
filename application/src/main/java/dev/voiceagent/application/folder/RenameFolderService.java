package dev.voiceagent.application.folder;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.folder.Folder;
import io.smallrye.mutiny.Uni;

@Singleton
public class RenameFolderService implements RenameFolderUseCase {

    private final FolderRepository folders;

    public RenameFolderService(FolderRepository folders) {
        this.folders = folders;
    }

    @Override
    public Uni<Folder> rename(Principal principal, long folderId, String name) {
        return Folders.find(folders, principal.organizationId(), folderId)
                .chain(folder -> folders.update(folder.renamed(Folder.checkName(name))));
    }
}
