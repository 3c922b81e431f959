package dev.voiceagent.application.folder;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface DeleteFolderUseCase {

    Uni<Void> delete(Principal principal, long folderId);
}
