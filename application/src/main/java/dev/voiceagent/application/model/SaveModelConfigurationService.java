package dev.voiceagent.application.model;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.model.ModelConfigurationDocument;
import dev.voiceagent.domain.model.ModelSecrets;
import dev.voiceagent.domain.model.SettingsProblem;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.List;

/**
 * Stores an organization's v2 configuration. A secret sent back as it was shown (masked) keeps the
 * stored value; a masked value that matches no stored secret is refused rather than stored.
 */
@Singleton
public class SaveModelConfigurationService implements SaveModelConfigurationUseCase {

    static final List<Object> BODY = List.of("body");

    private final ModelConfigurationRepository repository;
    private final ModelConfigurations configurations;
    private final Clock clock;

    public SaveModelConfigurationService(ModelConfigurationRepository repository, ModelConfigurations configurations,
            Clock clock) {
        this.repository = repository;
        this.configurations = configurations;
        this.clock = clock;
    }

    @Override
    public Uni<ModelConfigurationView> save(Principal principal, Object configuration) {
        long org = principal.organizationId();
        return repository.organizationConfiguration(org).chain(stored -> {
            Object restored = ModelConfigurationDocument.restoreSecrets(configuration, stored.orElse(null));
            var checked = ModelConfigurationDocument.checkV2(restored, BODY);
            if (!checked.valid()) {
                throw new InvalidModelConfigurationException(checked.problems());
            }
            rejectMasked(checked.value(), BODY);
            return repository.saveOrganizationConfiguration(org, checked.value(), clock.instant());
        }).chain(() -> configurations.resolve(org, principal.userId())).map(ModelConfigurationsService::view);
    }

    /** A masked placeholder that matched no stored secret: the client sent back a value it was only shown. */
    static void rejectMasked(Object document, List<Object> root) {
        List<List<Object>> masked = ModelSecrets.maskedLocations(document, root);
        if (!masked.isEmpty()) {
            throw new InvalidModelConfigurationException(masked.stream().map(loc -> new SettingsProblem(loc,
                    "The " + loc.getLast() + " appears to be masked. Please provide the actual value, not the masked"
                            + " value.", "masked_secret", null)).toList());
        }
    }
}
