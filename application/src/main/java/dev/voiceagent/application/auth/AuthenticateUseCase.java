package dev.voiceagent.application.auth;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

/** Resolves the credentials of a request to a principal, or fails with an AuthenticationException. */
public interface AuthenticateUseCase {

    Uni<Principal> authenticate(Credentials credentials);
}
