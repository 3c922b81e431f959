package dev.voiceagent.application.model;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface MigrateModelConfigurationUseCase {

    /** The user's legacy configuration becomes the organization's v2 one; 409 when it has one, unless forced. */
    Uni<ModelConfigurationView> migrate(Principal principal, boolean force);
}
