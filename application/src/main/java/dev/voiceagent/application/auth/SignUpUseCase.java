package dev.voiceagent.application.auth;

import io.smallrye.mutiny.Uni;

public interface SignUpUseCase {

    Uni<AuthSession> signUp(SignUpCommand command);
}
