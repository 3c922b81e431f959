package dev.voiceagent.application.organization;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.account.OrganizationPreferences;
import io.smallrye.mutiny.Uni;

public interface UpdateOrganizationPreferencesUseCase {

    Uni<OrganizationPreferences> update(Principal principal, OrganizationPreferences preferences);
}
