package dev.voiceagent.application.auth;

import dev.voiceagent.domain.account.User;

/** A signed-in user and the token that proves it. */
public record AuthSession(String token, User user) {
}
