package dev.voiceagent.adapters.rest.embed;

import dev.voiceagent.adapters.rest.auth.PublicEndpoint;
import dev.voiceagent.adapters.rest.turn.TurnResource.TurnCredentialsResponse;
import dev.voiceagent.application.conversation.TextChatRecord;
import dev.voiceagent.application.embed.EmbedUseCases.EmbedSessionUseCase;
import dev.voiceagent.application.embed.EmbedUseCases.GetWidgetConfigUseCase;
import dev.voiceagent.application.embed.EmbedUseCases.StartEmbedSessionUseCase;
import dev.voiceagent.domain.conversation.ChatTurn;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What an embedded widget calls from a third-party page, without credentials: gated by the embed token (and
 * its allowed domains) or by the session token minted at init. The page's origin is the Origin header, else
 * the Referer's. The CORS preflights (OPTIONS) of these paths are answered by the token's domains, and every
 * response reflects the page's origin, errors included, in one place: {@link EmbedCors}.
 */
@Path("/api/v1/public/embed")
public class PublicEmbedResource {

    @Schema(description = "Request model for initializing an embed session")
    public record InitEmbedRequest(@NotBlank @Size(max = 256) String token,
            @Schema(nullable = true) Map<String, Object> contextVariables) {
    }

    public record PublicEmbedChatMessage(String text, @Schema(nullable = true) String createdAt) {
    }

    public record PublicEmbedChatTurn(String id, String status, @Schema(nullable = true) PublicEmbedChatMessage userMessage,
            @Schema(nullable = true) PublicEmbedChatMessage assistantMessage) {
    }

    public record PublicEmbedChatSessionResponse(int revision, String state, boolean isCompleted,
            List<PublicEmbedChatTurn> turns) {

        static PublicEmbedChatSessionResponse of(TextChatRecord r) {
            return new PublicEmbedChatSessionResponse(r.revision(), r.run().state(), r.run().completed(),
                    r.session().activeTurns().stream().map(PublicEmbedChatSessionResponse::turn).toList());
        }

        private static PublicEmbedChatTurn turn(ChatTurn t) {
            return new PublicEmbedChatTurn(t.id(), ChatTurn.COMPLETED, t.userText() == null ? null
                    : new PublicEmbedChatMessage(t.userText(), t.createdAt().toString()),
                    t.assistantText() == null ? null : new PublicEmbedChatMessage(t.assistantText(),
                            t.answeredAt() == null ? null : t.answeredAt().toString()));
        }
    }

    @Schema(description = "Response model for embed initialization")
    public record InitEmbedResponse(String sessionToken, long workflowRunId, Map<String, Object> config,
            @Schema(defaultValue = "voice") String widgetType,
            @Schema(nullable = true) PublicEmbedChatSessionResponse chatSession) {
    }

    @Schema(description = "Response model for embed configuration")
    public record EmbedConfigResponse(long workflowId, Map<String, Object> settings,
            @Schema(ref = "WidgetTexts") Map<String, Object> texts, String theme, String position, String buttonText,
            String buttonColor, String size, boolean autoStart, boolean turnEnabled, boolean forceTurnRelay) {
    }

    public record PublicEmbedChatMessageRequest(@NotNull @Size(min = 1, max = 4000) String text,
            @Schema(nullable = true) @Min(0) Integer expectedRevision) {
    }

    public record PublicEmbedChatEndRequest(@Schema(nullable = true) @Min(0) Integer expectedRevision) {
    }

    private final StartEmbedSessionUseCase start;
    private final GetWidgetConfigUseCase config;
    private final EmbedSessionUseCase sessions;

    @Context
    HttpServerRequest request;

    public PublicEmbedResource(StartEmbedSessionUseCase start, GetWidgetConfigUseCase config,
            EmbedSessionUseCase sessions) {
        this.start = start;
        this.config = config;
        this.sessions = sessions;
    }

    /** The page's origin: the Origin header, else the Referer. */
    private String origin() {
        String origin = request.getHeader("Origin");
        return origin != null && !origin.isBlank() ? origin : request.getHeader("Referer");
    }

    @POST
    @Path("/init")
    @PublicEndpoint
    @Operation(summary = "Initialize Embed Session", description = "Starts a session for a page: a chat widget's"
            + " textchat run with its greeting already run (chat_session), or a voice widget's inbound run; a session"
            + " token valid for one hour. 404 unknown token; 403 inactive, expired, a page of another domain, or the"
            + " usage limit reached; 429 a burst of chat sessions (5 per second per token)")
    public Uni<InitEmbedResponse> init(@NotNull @Valid InitEmbedRequest body) {
        String userAgent = request.getHeader("User-Agent");
        String ip = request.remoteAddress() == null ? null : request.remoteAddress().hostAddress();
        return start.start(body.token(), origin(), body.contextVariables(), ip, userAgent).map(s ->
                new InitEmbedResponse(s.sessionToken(), s.runId(), s.config(), s.widgetType(),
                        s.chat() == null ? null : PublicEmbedChatSessionResponse.of(s.chat())));
    }

    @GET
    @Path("/config/{token}")
    @PublicEndpoint
    @Operation(summary = "Get Embed Config", description = "The widget's configuration and texts, without starting a"
            + " session")
    public Uni<EmbedConfigResponse> config(@PathParam("token") @Size(max = 256) String token) {
        return config.config(token, origin()).map(c -> new EmbedConfigResponse(c.workflowId(), c.settings(), c.texts(),
                c.theme(), c.position(), c.buttonText(), c.buttonColor(), c.size(), c.autoStart(), c.turnEnabled(),
                c.forceTurnRelay()));
    }

    @GET
    @Path("/turn-credentials/{session_token}")
    @PublicEndpoint
    @Operation(summary = "Get Embed Turn Credentials", description = "TURN credentials for the session's WebRTC call"
            + " (user embed:<the session token's first 16 characters>); 503 without a relay")
    public Uni<TurnCredentialsResponse> turnCredentials(@PathParam("session_token") @Size(max = 256) String sessionToken) {
        return sessions.turnCredentials(sessionToken, origin()).map(TurnCredentialsResponse::of);
    }

    @GET
    @Path("/chat/{session_token}")
    @PublicEndpoint
    @Operation(summary = "Get Public Chat Session", description = "The chat's turns (after a 409, to resync)")
    public Uni<PublicEmbedChatSessionResponse> chat(@PathParam("session_token") @Size(max = 256) String sessionToken) {
        return sessions.chat(sessionToken, origin()).map(PublicEmbedChatSessionResponse::of);
    }

    @POST
    @Path("/chat/{session_token}/messages")
    @PublicEndpoint
    @Operation(summary = "Post Public Chat Message", description = "A visitor's message and the agent's answer. 429"
            + " beyond 5 messages a second per chat (50 per token) or after 50 messages; 400 {code: chat_completed}"
            + " once ended; 409 on a stale expected_revision; 502 when the model fails")
    public Uni<PublicEmbedChatSessionResponse> message(@PathParam("session_token") @Size(max = 256) String sessionToken,
            @NotNull @Valid PublicEmbedChatMessageRequest body) {
        return sessions.send(sessionToken, origin(), body.text(), body.expectedRevision())
                .map(PublicEmbedChatSessionResponse::of);
    }

    @POST
    @Path("/chat/{session_token}/end")
    @PublicEndpoint
    @Operation(summary = "End Public Chat Session")
    public Uni<PublicEmbedChatSessionResponse> end(@PathParam("session_token") @Size(max = 256) String sessionToken,
            @Valid PublicEmbedChatEndRequest body) {
        return sessions.end(sessionToken, origin(), body == null ? null : body.expectedRevision())
                .map(PublicEmbedChatSessionResponse::of);
    }
}
