package dev.voiceagent.application.auth;

import dev.voiceagent.domain.account.User;
import java.time.Instant;
import java.util.Optional;

/** Out-port: signs and verifies the session tokens given to signed-in users. */
public interface TokenService {

    String issue(User user, Instant now);

    /** The claims of a token with a valid signature that has not expired at {@code now}; empty otherwise. */
    Optional<TokenClaims> verify(String token, Instant now);
}
