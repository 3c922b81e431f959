package dev.voiceagent.application.model;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface GetModelConfigurationUseCase {

    Uni<ModelConfigurationView> get(Principal principal);
}
