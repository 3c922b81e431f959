package dev.voiceagent.application.folder;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.folder.Folder;
import io.smallrye.mutiny.Uni;
import java.util.List;

@Singleton
public class ListFoldersService implements ListFoldersUseCase {

    private final FolderRepository folders;

    public ListFoldersService(FolderRepository folders) {
        this.folders = folders;
    }

    @Override
    public Uni<List<Folder>> list(Principal principal) {
        return folders.list(principal.organizationId());
    }
}
