package dev.voiceagent.application.turn;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.health.ServiceUnavailableException;
import dev.voiceagent.application.turn.TurnUseCases.GetEmbedTurnCredentialsUseCase;
import dev.voiceagent.application.turn.TurnUseCases.GetTurnCredentialsUseCase;
import java.time.Clock;

@Singleton
public class TurnCredentialsService implements GetTurnCredentialsUseCase, GetEmbedTurnCredentialsUseCase {

    static final String NOT_CONFIGURED = "TURN server not configured";

    private final TurnCredentialIssuer issuer;
    private final Clock clock;

    public TurnCredentialsService(TurnCredentialIssuer issuer, Clock clock) {
        this.issuer = issuer;
        this.clock = clock;
    }

    @Override
    public TurnCredentials forUser(Principal principal) {
        return issue(String.valueOf(principal.userId()));
    }

    @Override
    public TurnCredentials forEmbedSession(String sessionToken) {
        return issue("embed:" + sessionToken.substring(0, Math.min(16, sessionToken.length())));
    }

    public boolean configured() {
        return issuer.configured();
    }

    public boolean forceRelay() {
        return issuer.forceRelay();
    }

    private TurnCredentials issue(String user) {
        return issuer.issue(user, clock.instant()).orElseThrow(() -> new ServiceUnavailableException(NOT_CONFIGURED));
    }
}
