package dev.voiceagent.application.model;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

@Singleton
public class GetModelConfigurationService implements GetModelConfigurationUseCase {

    private final ModelConfigurations configurations;

    public GetModelConfigurationService(ModelConfigurations configurations) {
        this.configurations = configurations;
    }

    @Override
    public Uni<ModelConfigurationView> get(Principal principal) {
        return configurations.resolve(principal.organizationId(), principal.userId())
                .map(ModelConfigurationsService::view);
    }
}
