package dev.voiceagent.application.campaign;

import dev.voiceagent.application.auth.Principal;
import io.smallrye.mutiny.Uni;

public interface CreateSourceDownloadUrlUseCase {

    /** A signed GET of the campaign's source CSV, valid one hour. */
    Uni<String> create(Principal principal, long campaignId);
}
