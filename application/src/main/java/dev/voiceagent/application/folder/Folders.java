package dev.voiceagent.application.folder;

import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.folder.Folder;
import io.smallrye.mutiny.Uni;

/** Find a folder of the organization; another organization's folder is "not found". */
public final class Folders {

    public static final String NOT_FOUND = "Folder not found";

    private Folders() {
    }

    public static Uni<Folder> find(FolderRepository folders, long organizationId, long folderId) {
        return folders.find(organizationId, folderId)
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND)));
    }
}
