package dev.voiceagent.application.apikey;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.apikey.ApiKey;
import io.smallrye.mutiny.Uni;

/** Revokes a key at once (a soft delete: it can be reactivated). */
public interface ArchiveApiKeyUseCase {

    Uni<ApiKey> archive(Principal principal, long apiKeyId);
}
