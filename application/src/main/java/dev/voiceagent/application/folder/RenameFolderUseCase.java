package dev.voiceagent.application.folder;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.folder.Folder;
import io.smallrye.mutiny.Uni;

public interface RenameFolderUseCase {

    Uni<Folder> rename(Principal principal, long folderId, String name);
}
