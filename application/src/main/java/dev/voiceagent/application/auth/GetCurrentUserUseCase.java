package dev.voiceagent.application.auth;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.account.User;
import io.smallrye.mutiny.Uni;

public interface GetCurrentUserUseCase {

    Uni<User> currentUser(Principal principal);
}
