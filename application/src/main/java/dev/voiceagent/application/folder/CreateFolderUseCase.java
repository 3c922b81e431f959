package dev.voiceagent.application.folder;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.folder.Folder;
import io.smallrye.mutiny.Uni;

public interface CreateFolderUseCase {

    Uni<Folder> create(Principal principal, String name);
}
