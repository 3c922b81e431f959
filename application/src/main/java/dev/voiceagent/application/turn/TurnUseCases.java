package dev.voiceagent.application.turn;

import dev.voiceagent.application.shared.Principal;

/** TURN credentials for a browser's WebRTC connection. */
public final class TurnUseCases {

    private TurnUseCases() {
    }

    public interface GetTurnCredentialsUseCase {
        /** For the signed-in user; 503 when no TURN relay is configured. */
        TurnCredentials forUser(Principal principal);
    }

    public interface GetEmbedTurnCredentialsUseCase {
        /** For an embed session: the user id is embed:<the session token's first 16 characters>. */
        TurnCredentials forEmbedSession(String sessionToken);
    }
}
