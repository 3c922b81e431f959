package dev.voiceagent.application.folder;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.folder.Folder;
import io.smallrye.mutiny.Uni;
import java.time.Clock;

@Singleton
public class CreateFolderService implements CreateFolderUseCase {

    private final FolderRepository folders;
    private final Clock clock;

    public CreateFolderService(FolderRepository folders, Clock clock) {
        this.folders = folders;
        this.clock = clock;
    }

    @Override
    public Uni<Folder> create(Principal principal, String name) {
        return folders.insert(new Folder(null, principal.organizationId(), name, clock.instant()));
    }
}
