package dev.voiceagent.application.turn;

import java.time.Instant;
import java.util.Optional;

/** Out-port: issues TURN credentials for a user id; empty when the installation has no TURN relay configured. */
public interface TurnCredentialIssuer {

    Optional<TurnCredentials> issue(String userId, Instant now);
}
