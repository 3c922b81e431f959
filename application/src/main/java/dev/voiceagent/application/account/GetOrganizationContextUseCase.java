package dev.voiceagent.application.account;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface GetOrganizationContextUseCase {

    Uni<OrganizationContext> context(Principal principal);
}
