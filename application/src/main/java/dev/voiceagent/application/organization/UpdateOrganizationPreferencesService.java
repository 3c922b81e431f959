package dev.voiceagent.application.organization;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.account.OrganizationPreferences;
import io.smallrye.mutiny.Uni;

@Singleton
public class UpdateOrganizationPreferencesService implements UpdateOrganizationPreferencesUseCase {

    private final OrganizationPreferencesRepository preferences;

    public UpdateOrganizationPreferencesService(OrganizationPreferencesRepository preferences) {
        this.preferences = preferences;
    }

    @Override
    public Uni<OrganizationPreferences> update(Principal principal, OrganizationPreferences update) {
        return preferences.put(principal.organizationId(), update);
    }
}
