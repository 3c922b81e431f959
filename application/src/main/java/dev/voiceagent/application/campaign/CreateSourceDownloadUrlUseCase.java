package dev.voiceagent.application.campaign;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;
import java.time.Duration;

public interface CreateSourceDownloadUrlUseCase {

    /** How long a source download URL stays valid. */
    Duration VALID_FOR = Duration.ofHours(1);

    /** A signed GET of the campaign's source CSV, valid {@link #VALID_FOR}. */
    Uni<String> create(Principal principal, long campaignId);
}
