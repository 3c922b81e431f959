package dev.voiceagent.application.folder;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.folder.Folder;
import io.smallrye.mutiny.Uni;
import java.util.List;

public interface ListFoldersUseCase {

    Uni<List<Folder>> list(Principal principal);
}
