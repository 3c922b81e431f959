package dev.voiceagent.application.turn;

import java.time.Instant;
import java.util.Optional;

/** Out-port: issues TURN credentials for a user id; empty when the installation has no TURN relay configured. */
public interface TurnCredentialIssuer {

    Optional<TurnCredentials> issue(String userId, Instant now);

    /** Whether credentials can be issued (what a widget is told before it asks). */
    boolean configured();

    /** Whether browsers should use the relay only (a diagnostic setting). */
    boolean forceRelay();
}
