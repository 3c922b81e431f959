package dev.voiceagent.application.auth;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.AuthenticationException;
import dev.voiceagent.domain.account.User;
import io.smallrye.mutiny.Uni;

/** The signed-in user, seen in the organization of the credential (an API key's, not the user's own). */
@Singleton
public class GetCurrentUserService implements GetCurrentUserUseCase {

    private final AccountRepository accounts;

    public GetCurrentUserService(AccountRepository accounts) {
        this.accounts = accounts;
    }

    @Override
    public Uni<User> currentUser(Principal principal) {
        return accounts.findUserById(principal.userId())
                .map(found -> found.orElseThrow(() -> new AuthenticationException(AuthenticateService.NO_USER))
                        .withOrganization(principal.organizationId()));
    }
}
