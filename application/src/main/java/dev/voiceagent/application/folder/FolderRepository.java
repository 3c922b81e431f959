package dev.voiceagent.application.folder;

import dev.voiceagent.domain.folder.Folder;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Optional;

/** Out-port: folders of one organization. A name taken in the organization is a ConflictException. */
public interface FolderRepository {

    Uni<List<Folder>> list(long organizationId);

    Uni<Optional<Folder>> find(long organizationId, long folderId);

    Uni<Folder> insert(Folder folder);

    Uni<Folder> update(Folder folder);

    /** Deletes the folder; its workflows stay, unfiled. */
    Uni<Void> delete(long organizationId, long folderId);
}
