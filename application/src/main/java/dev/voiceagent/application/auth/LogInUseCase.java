package dev.voiceagent.application.auth;

import io.smallrye.mutiny.Uni;

public interface LogInUseCase {

    Uni<AuthSession> logIn(String email, String password);
}
