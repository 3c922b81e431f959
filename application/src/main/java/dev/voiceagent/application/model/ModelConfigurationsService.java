package dev.voiceagent.application.model;

import jakarta.inject.Singleton;
import dev.voiceagent.domain.model.EffectiveModels;
import dev.voiceagent.domain.model.ModelConfigurationDocument;
import dev.voiceagent.domain.model.ModelSecrets;
import io.smallrye.mutiny.Uni;
import java.util.Map;

/** The organization's v2 configuration when it has one, else the user's legacy one, else nothing. */
@Singleton
public class ModelConfigurationsService implements ModelConfigurations {

    private final ModelConfigurationRepository repository;
    private final ManagedModels managed;

    public ModelConfigurationsService(ModelConfigurationRepository repository, ManagedModels managed) {
        this.repository = repository;
        this.managed = managed;
    }

    @Override
    public Uni<ResolvedModels> resolve(long organizationId, long userId) {
        return repository.organizationConfiguration(organizationId).chain(v2 -> {
            if (v2.isPresent()) {
                return Uni.createFrom().item(new ResolvedModels(ResolvedModels.ORGANIZATION_V2,
                        ModelConfigurationDocument.effective(v2.get()), v2.get(), managed));
            }
            return repository.userConfiguration(organizationId, userId).map(v1 -> {
                EffectiveModels legacy = ModelConfigurationDocument.fromV1(v1.orElse(null));
                return new ResolvedModels(legacy.isEmpty() ? ResolvedModels.EMPTY : ResolvedModels.LEGACY_USER_V1, legacy,
                        null, managed);
            });
        });
    }

    /** The view of a resolution: the configuration and the effective settings, both masked. */
    @SuppressWarnings("unchecked")
    static ModelConfigurationView view(ResolvedModels resolved) {
        return new ModelConfigurationView(resolved.organizationConfiguration() == null ? null
                : (Map<String, Object>) ModelSecrets.masked(resolved.organizationConfiguration()),
                (Map<String, Object>) ModelSecrets.masked(resolved.effective().toMap()), resolved.source());
    }
}
