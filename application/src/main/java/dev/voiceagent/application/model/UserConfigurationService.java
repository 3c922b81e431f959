package dev.voiceagent.application.model;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.organization.OrganizationPreferencesRepository;
import dev.voiceagent.domain.account.OrganizationPreferences;
import dev.voiceagent.domain.model.ModelConfigurationDocument;
import dev.voiceagent.domain.model.ModelSecrets;
import dev.voiceagent.domain.model.ModelService;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/** The reference's user-level configuration (v1): read as the effective models, written per service. */
@Singleton
public class UserConfigurationService implements GetUserConfigurationUseCase, UpdateUserConfigurationUseCase {

    private final ModelConfigurationRepository repository;
    private final ModelConfigurations configurations;
    private final OrganizationPreferencesRepository preferences;
    private final Clock clock;

    public UserConfigurationService(ModelConfigurationRepository repository, ModelConfigurations configurations,
            OrganizationPreferencesRepository preferences, Clock clock) {
        this.repository = repository;
        this.configurations = configurations;
        this.preferences = preferences;
        this.clock = clock;
    }

    @Override
    public Uni<UserConfigurationView> get(Principal principal) {
        return Uni.combine().all().unis(configurations.resolve(principal.organizationId(), principal.userId()),
                preferences.get(principal.organizationId())).with((resolved, prefs) -> view(
                        resolved.effective().toMap(), prefs));
    }

    @Override
    @SuppressWarnings("unchecked")
    public Uni<UserConfigurationView> update(Principal principal, Map<String, Object> body) {
        long org = principal.organizationId();
        boolean preferencesGiven = body.containsKey("test_phone_number") || body.containsKey("timezone");
        return Uni.combine().all().unis(preferences.get(org), repository.userConfiguration(org, principal.userId()))
                .asTuple().chain(current -> {
                    OrganizationPreferences prefs = current.getItem1();
                    // checked before anything is written: nothing is half-stored when a value is refused
                    OrganizationPreferences updated = !preferencesGiven ? prefs : new OrganizationPreferences(
                            body.containsKey("test_phone_number") ? (String) body.get("test_phone_number")
                                    : prefs.testPhoneNumber(),
                            body.containsKey("timezone") ? (String) body.get("timezone") : prefs.timezone(),
                            prefs.externalPbxIntegrationsEnabled());
                    Map<String, Object> existing = current.getItem2().orElse(Map.of());
                    Map<String, Object> incoming = new LinkedHashMap<>();
                    for (ModelService service : ModelService.values()) {
                        if (body.get(service.wireName()) != null) {
                            incoming.put(service.wireName(), body.get(service.wireName()));
                        }
                    }
                    incoming = ModelConfigurationDocument.restoreServices(incoming, existing);
                    if (body.get("is_realtime") != null) {
                        incoming.put("is_realtime", body.get("is_realtime"));
                    }
                    var checked = ModelConfigurationDocument.checkV1(incoming, SaveModelConfigurationService.BODY);
                    if (!checked.valid()) {
                        throw new InvalidModelConfigurationException(checked.problems());
                    }
                    SaveModelConfigurationService.rejectMasked(checked.value(), SaveModelConfigurationService.BODY);
                    Map<String, Object> merged = new LinkedHashMap<>(existing);
                    merged.putAll(checked.value());
                    Uni<Void> saved = checked.value().isEmpty() ? Uni.createFrom().voidItem()
                            : repository.saveUserConfiguration(org, principal.userId(), merged, clock.instant());
                    Uni<OrganizationPreferences> prefsSaved = preferencesGiven ? preferences.put(org, updated)
                            : Uni.createFrom().item(prefs);
                    return saved.chain(() -> prefsSaved).map(p -> view(ModelConfigurationDocument.fromV1(merged)
                            .toMap(), p));
                });
    }

    @SuppressWarnings("unchecked")
    private static UserConfigurationView view(Map<String, Object> effective, OrganizationPreferences prefs) {
        Map<String, Object> masked = (Map<String, Object>) ModelSecrets.masked(effective);
        boolean realtime = Boolean.TRUE.equals(masked.remove("is_realtime"));
        return new UserConfigurationView(masked, realtime, prefs.testPhoneNumber(), prefs.timezone(), null);
    }
}
