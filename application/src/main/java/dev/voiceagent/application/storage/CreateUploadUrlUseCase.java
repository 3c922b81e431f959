package dev.voiceagent.application.storage;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface CreateUploadUrlUseCase {

    /** A signed PUT for a campaign CSV: name ends in .csv, size 1 byte..10 MiB; valid 15 minutes. */
    Uni<UploadUrl> create(Principal principal, String fileName, long fileSize, String contentType);
}
