package dev.voiceagent.application.organization;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.account.OrganizationPreferences;
import io.smallrye.mutiny.Uni;

@Singleton
public class GetOrganizationPreferencesService implements GetOrganizationPreferencesUseCase {

    private final OrganizationPreferencesRepository preferences;

    public GetOrganizationPreferencesService(OrganizationPreferencesRepository preferences) {
        this.preferences = preferences;
    }

    @Override
    public Uni<OrganizationPreferences> get(Principal principal) {
        return preferences.get(principal.organizationId());
    }
}
