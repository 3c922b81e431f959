package dev.voiceagent.application.model;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.domain.model.ModelConfigurationDocument;
import dev.voiceagent.domain.model.ModelSecrets;
import dev.voiceagent.domain.model.SettingsProblem;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/** From the user-level configuration (v1) to the organization's (v2): previewed, then applied. */
@Singleton
public class ModelMigrationService implements PreviewModelMigrationUseCase, MigrateModelConfigurationUseCase {

    static final String ALREADY = "Organization already has a v2 model configuration";

    private final ModelConfigurationRepository repository;
    private final ModelConfigurations configurations;
    private final Clock clock;

    public ModelMigrationService(ModelConfigurationRepository repository, ModelConfigurations configurations,
            Clock clock) {
        this.repository = repository;
        this.configurations = configurations;
        this.clock = clock;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Uni<ModelMigrationPreview> preview(Principal principal) {
        return converted(principal).map(v2 -> new ModelMigrationPreview((Map<String, Object>) ModelSecrets.masked(v2),
                (Map<String, Object>) ModelSecrets.masked(ModelConfigurationDocument.effective(v2).toMap())));
    }

    @Override
    public Uni<ModelConfigurationView> migrate(Principal principal, boolean force) {
        long org = principal.organizationId();
        return repository.organizationConfiguration(org).chain(existing -> {
            if (existing.isPresent() && !force) {
                throw new ConflictException(ALREADY);
            }
            return converted(principal);
        }).chain(v2 -> repository.saveOrganizationConfiguration(org, v2, clock.instant()))
                .chain(() -> configurations.resolve(org, principal.userId())).map(ModelConfigurationsService::view);
    }

    /** The user's legacy configuration as a checked v2 one; 422 when it is incomplete or no longer valid. */
    private Uni<Map<String, Object>> converted(Principal principal) {
        return repository.userConfiguration(principal.organizationId(), principal.userId()).map(v1 -> {
            Map<String, Object> v2;
            try {
                v2 = ModelConfigurationDocument.fromLegacy(ModelConfigurationDocument.fromV1(v1.orElse(null)));
            } catch (DomainRuleViolation e) {
                throw new InvalidModelConfigurationException(List.of(new SettingsProblem(List.of("user_configuration"),
                        e.getMessage(), "incomplete_configuration", null)));
            }
            var checked = ModelConfigurationDocument.checkV2(v2, List.of("user_configuration"));
            if (!checked.valid()) {
                throw new InvalidModelConfigurationException(checked.problems());
            }
            return checked.value();
        });
    }
}
