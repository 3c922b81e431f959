package dev.voiceagent.adapters.rest.turn;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.turn.TurnCredentials;
import dev.voiceagent.application.turn.TurnUseCases.GetTurnCredentialsUseCase;
import io.smallrye.common.annotation.NonBlocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Credentials for the installation's TURN relay, for a browser's WebRTC test calls. */
@Path("/api/v1/turn/credentials")
public class TurnResource {

    @Schema(description = "Response model for TURN credentials.")
    public record TurnCredentialsResponse(String username, String password, long ttl, List<String> uris) {

        public static TurnCredentialsResponse of(TurnCredentials c) {
            return new TurnCredentialsResponse(c.username(), c.password(), c.ttl(), c.uris());
        }
    }

    private final Caller caller;
    private final GetTurnCredentialsUseCase turn;

    public TurnResource(Caller caller, GetTurnCredentialsUseCase turn) {
        this.caller = caller;
        this.turn = turn;
    }

    @GET
    @NonBlocking
    @Operation(summary = "Get Turn Credentials", description = "coturn REST credentials: username <expiry>:<user id>,"
            + " password base64(HMAC-SHA1(secret, username)), valid for ttl seconds; 503 when no relay is configured"
            + " (VOICEAGENT_TURN_SECRET, VOICEAGENT_TURN_HOST)")
    public TurnCredentialsResponse credentials() {
        return TurnCredentialsResponse.of(turn.forUser(caller.principal()));
    }
}
