package dev.voiceagent.application.organization;

import dev.voiceagent.domain.account.OrganizationPreferences;
import io.smallrye.mutiny.Uni;

/** Out-port: the preferences of an organization (NONE until set). */
public interface OrganizationPreferencesRepository {

    Uni<OrganizationPreferences> get(long organizationId);

    Uni<OrganizationPreferences> put(long organizationId, OrganizationPreferences preferences);
}
