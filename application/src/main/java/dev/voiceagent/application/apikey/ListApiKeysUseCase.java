package dev.voiceagent.application.apikey;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.apikey.ApiKey;
import io.smallrye.mutiny.Uni;
import java.util.List;

public interface ListApiKeysUseCase {

    Uni<List<ApiKey>> list(Principal principal, boolean includeArchived);
}
