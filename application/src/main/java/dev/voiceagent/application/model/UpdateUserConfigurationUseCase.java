package dev.voiceagent.application.model;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;
import java.util.Map;

public interface UpdateUserConfigurationUseCase {

    /**
     * Stores the services given in the user's legacy configuration (each checked; masked secrets restored)
     * and the organization's test_phone_number / timezone; answers the user's configuration as stored.
     */
    Uni<UserConfigurationView> update(Principal principal, Map<String, Object> body);
}
