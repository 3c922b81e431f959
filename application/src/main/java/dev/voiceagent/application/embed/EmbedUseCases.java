package dev.voiceagent.application.embed;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.conversation.TextChatRecord;
import dev.voiceagent.application.turn.TurnCredentials;
import dev.voiceagent.domain.embed.EmbedToken;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Website embeds: the organization's side (the token) and the page's side (sessions, config, chat). */
public final class EmbedUseCases {

    private EmbedUseCases() {
    }

    /** What an embed page starts with. */
    public record Started(String sessionToken, long runId, Map<String, Object> config, String widgetType,
            TextChatRecord chat) {
    }

    /** The widget's configuration, its texts resolved. */
    public record WidgetConfig(long workflowId, Map<String, Object> settings, Map<String, Object> texts, String theme,
            String position, String buttonText, String buttonColor, String size, boolean autoStart,
            boolean turnEnabled, boolean forceTurnRelay) {
    }

    public interface SaveEmbedTokenUseCase {
        Uni<EmbedToken> save(Principal principal, long workflowId, List<String> allowedDomains,
                Map<String, Object> settings, Integer usageLimit, Integer expiresInDays);
    }

    public interface GetEmbedTokenUseCase {
        /** The workflow's active token, if any. */
        Uni<Optional<EmbedToken>> get(Principal principal, long workflowId);
    }

    public interface DeactivateEmbedTokenUseCase {
        Uni<Void> deactivate(Principal principal, long workflowId);
    }

    public interface StartEmbedSessionUseCase {
        /**
         * 404 unknown token; 403 inactive, expired, another domain, or its usage limit reached; 429 a burst of chat
         * sessions. A chat widget's greeting has run; a voice widget's inbound run waits for its media.
         */
        Uni<Started> start(String token, String origin, Map<String, Object> contextVariables, String clientIp,
                String userAgent);
    }

    public interface GetWidgetConfigUseCase {
        Uni<WidgetConfig> config(String token, String origin);
    }

    public interface EmbedSessionUseCase {
        Uni<TurnCredentials> turnCredentials(String sessionToken, String origin);

        Uni<TextChatRecord> chat(String sessionToken, String origin);

        Uni<TextChatRecord> send(String sessionToken, String origin, String text, Integer expectedRevision);

        Uni<TextChatRecord> end(String sessionToken, String origin, Integer expectedRevision);

        /**
         * A voice widget's session, for its media: unexpired, its token active, this page allowed (404 unknown, 403
         * otherwise, as for chat).
         */
        Uni<EmbedSession> voiceSession(String sessionToken, String origin);
    }

    public interface EmbedPreflightUseCase {
        /** May this page fetch the token's config (an active token and an allowed origin)? */
        Uni<Boolean> configAllowed(String token, String origin);

        /**
         * May this page call a session's endpoints? Only a known session from another domain is refused: the real
         * request then answers a readable error rather than an opaque network failure.
         */
        Uni<Boolean> sessionAllowed(String sessionToken, String origin);
    }
}
