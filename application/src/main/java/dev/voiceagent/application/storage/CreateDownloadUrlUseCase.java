package dev.voiceagent.application.storage;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;
import java.time.Duration;

public interface CreateDownloadUrlUseCase {

    /** A signed GET for a key of the caller's organization (another organization's key: 403; malformed: 400). */
    Uni<String> create(Principal principal, String key, Duration ttl, boolean inline);
}
