package dev.voiceagent.application.model;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface GetUserConfigurationUseCase {

    /** The effective models (the organization's v2 when it has one, else the user's own) and preferences. */
    Uni<UserConfigurationView> get(Principal principal);
}
