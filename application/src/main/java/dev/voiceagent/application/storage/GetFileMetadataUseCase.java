package dev.voiceagent.application.storage;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;
import java.util.Optional;

public interface GetFileMetadataUseCase {

    /** Empty when the object does not exist (yet). */
    Uni<Optional<ObjectMetadata>> metadata(Principal principal, String key);
}
