package dev.voiceagent.application.account;

import dev.voiceagent.application.auth.Principal;
import io.smallrye.mutiny.Uni;

public interface GetOrganizationContextUseCase {

    Uni<OrganizationContext> context(Principal principal);
}
