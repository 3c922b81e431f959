package dev.voiceagent.application.model;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface SaveModelConfigurationUseCase {

    /** Checks the v2 document field by field (masked secrets restored from the stored one) and stores it. */
    Uni<ModelConfigurationView> save(Principal principal, Object configuration);
}
