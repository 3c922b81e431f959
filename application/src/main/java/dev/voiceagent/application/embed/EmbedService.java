package dev.voiceagent.application.embed;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.conversation.TextChatRecord;
import dev.voiceagent.application.conversation.TextChatService;
import dev.voiceagent.application.embed.EmbedUseCases.DeactivateEmbedTokenUseCase;
import dev.voiceagent.application.embed.EmbedUseCases.EmbedPreflightUseCase;
import dev.voiceagent.application.embed.EmbedUseCases.EmbedSessionUseCase;
import dev.voiceagent.application.embed.EmbedUseCases.GetEmbedTokenUseCase;
import dev.voiceagent.application.embed.EmbedUseCases.GetWidgetConfigUseCase;
import dev.voiceagent.application.embed.EmbedUseCases.SaveEmbedTokenUseCase;
import dev.voiceagent.application.embed.EmbedUseCases.StartEmbedSessionUseCase;
import dev.voiceagent.application.embed.EmbedUseCases.Started;
import dev.voiceagent.application.embed.EmbedUseCases.WidgetConfig;
import dev.voiceagent.application.shared.ForbiddenException;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.application.turn.TurnCredentials;
import dev.voiceagent.application.turn.TurnCredentialsService;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import dev.voiceagent.domain.conversation.ChatRuns;
import dev.voiceagent.domain.embed.EmbedOrigins;
import dev.voiceagent.domain.embed.EmbedSessions;
import dev.voiceagent.domain.embed.EmbedToken;
import dev.voiceagent.domain.workflow.JsonTree;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowConfigurationDefaults;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Website embeds (the reference's 6.2). A token belongs to one workflow of one organization and is public (a page
 * puts it in a script tag), so a page is trusted only as far as the token's allowed domains; a session token,
 * minted per page visit for an hour, is a secret kept as a hash. Embeds use the published version.
 */
public class EmbedService implements SaveEmbedTokenUseCase, GetEmbedTokenUseCase, DeactivateEmbedTokenUseCase,
        StartEmbedSessionUseCase, GetWidgetConfigUseCase, EmbedSessionUseCase, EmbedPreflightUseCase {

    static final String INVALID_TOKEN = "Invalid embed token";
    static final String INVALID_SESSION = "Invalid session token";
    static final int INITS_PER_SECOND = 5;
    static final int MESSAGES_PER_SECOND_PER_RUN = 5;
    static final int MESSAGES_PER_SECOND_PER_TOKEN = 50;

    private final EmbedRepository embeds;
    private final WorkflowRepository workflows;
    private final WorkflowRunRepository runs;
    private final TextChatService chats;
    private final TurnCredentialsService turn;
    private final RateLimiter limiter;
    private final SecureRandom random;
    private final Clock clock;

    public EmbedService(EmbedRepository embeds, WorkflowRepository workflows, WorkflowRunRepository runs,
            TextChatService chats, TurnCredentialsService turn, RateLimiter limiter, SecureRandom random, Clock clock) {
        this.embeds = embeds;
        this.workflows = workflows;
        this.runs = runs;
        this.chats = chats;
        this.turn = turn;
        this.limiter = limiter;
        this.random = random;
        this.clock = clock;
    }

    // --- the organization's side -------------------------------------------------------------------------

    @Override
    public Uni<EmbedToken> save(Principal principal, long workflowId, List<String> allowedDomains,
            Map<String, Object> settings, Integer usageLimit, Integer expiresInDays) {
        long org = principal.organizationId();
        return workflow(org, workflowId).chain(w -> embeds.findByWorkflow(org, workflowId)).chain(current ->
                embeds.save(EmbedToken.save(current.orElse(null), org, workflowId, EmbedToken.PREFIX + secret(),
                        allowedDomains, settings, usageLimit, expiresInDays, principal.userId(), clock.instant())));
    }

    @Override
    public Uni<Optional<EmbedToken>> get(Principal principal, long workflowId) {
        long org = principal.organizationId();
        return workflow(org, workflowId).chain(w -> embeds.findByWorkflow(org, workflowId))
                .map(found -> found.filter(EmbedToken::active));
    }

    @Override
    public Uni<Void> deactivate(Principal principal, long workflowId) {
        long org = principal.organizationId();
        return workflow(org, workflowId).chain(w -> embeds.deactivate(org, workflowId)).invoke(done -> {
            if (!done) {
                throw new ResourceNotFoundException("This workflow has no active embed token");
            }
        }).replaceWithVoid();
    }

    private Uni<Workflow> workflow(long org, long workflowId) {
        return workflows.find(org, workflowId)
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException("Workflow not found")));
    }

    // --- the page's side ---------------------------------------------------------------------------------

    /** The token, active, unexpired and allowed for this page; else why not. */
    private Uni<EmbedToken> usableToken(String token, String origin) {
        return embeds.findByToken(token == null ? "" : token).map(found -> {
            EmbedToken t = found.orElseThrow(() -> new ResourceNotFoundException(INVALID_TOKEN));
            if (!t.active()) {
                throw new ForbiddenException("Embed token is inactive");
            }
            if (t.expired(clock.instant())) {
                throw new ForbiddenException("Embed token has expired");
            }
            if (!EmbedOrigins.allowed(origin, t.allowedDomains())) {
                throw new ForbiddenException("Domain not allowed: " + (origin == null ? "" : origin));
            }
            return t;
        });
    }

    @Override
    public Uni<Started> start(String token, String origin, Map<String, Object> contextVariables, String clientIp,
            String userAgent) {
        return usableToken(token, origin).chain(t -> {
            boolean chat = "chat".equals(t.widgetType());
            if (chat && !limiter.allow("embed-init:" + t.id(), INITS_PER_SECOND, Duration.ofSeconds(1))) {
                throw new TooManyRequestsException("Too many chat sessions. Please try again shortly");
            }
            return embeds.reserveUse(t.id()).chain(reserved -> {
                if (!reserved) {
                    throw new ForbiddenException("Embed token usage limit exceeded");
                }
                return workflow(t.organizationId(), t.workflowId());
            }).chain(workflow -> {
                Map<String, Object> context = EmbedSessions.sanitizedContext(contextVariables);
                Instant now = clock.instant();
                Uni<Run> run = chat ? chats.start(workflow, workflow.published(), "Embed Chat - " + now, context,
                                Map.of("embed", Map.of("source", "embed_widget", "modality", "text")))
                        .onFailure(UpstreamServiceException.class)
                        .transform(f -> new UpstreamServiceException("Assistant failed to respond"))
                        .map(record -> new Run(record.run().id(), record))
                        : runs.insert(voiceRun(workflow, context, now)).map(r -> new Run(r.id(), null));
                return run.chain(started -> {
                    String sessionToken = EmbedSessions.PREFIX + secret();
                    EmbedSession session = new EmbedSession(null, t.id(), t.organizationId(), t.workflowId(),
                            started.id(), origin == null ? null : truncate(origin, 255),
                            now.plus(EmbedSessions.LIFETIME), now);
                    return embeds.insertSession(session, hash(sessionToken), clientIp == null ? null
                            : truncate(clientIp, 64), userAgent == null ? null : truncate(userAgent, 500))
                            .map(stored -> new Started(sessionToken, started.id(), initConfig(t, started.id()),
                                    t.widgetType(), started.chat()));
                });
            });
        });
    }

    private record Run(long id, TextChatRecord chat) {
    }

    /** A voice widget's run: inbound, waiting for the browser's media (smallwebrtc). */
    private static WorkflowRun voiceRun(Workflow workflow, Map<String, Object> context, Instant now) {
        WorkflowRun started = WorkflowRun.start(workflow.organizationId(), workflow.id(), workflow.published(),
                "Embed Run - " + now, "smallwebrtc", now);
        Map<String, Object> initial = new LinkedHashMap<>(started.initialContext() == null ? Map.of()
                : started.initialContext());
        initial.putAll(context);
        initial.put("provider", "smallwebrtc");
        initial.put("direction", "inbound");
        return WorkflowRun.initialized(started.organizationId(), started.workflowId(), started.definitionId(),
                started.name(), started.mode(), "inbound", initial, now)
                .withAnnotations(Map.of("embed", Map.of("source", "embed_widget", "modality", "voice")));
    }

    private Map<String, Object> initConfig(EmbedToken t, long runId) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("workflow_id", t.workflowId());
        config.put("workflow_run_id", runId);
        config.put("turn_enabled", turn.configured());
        config.put("force_turn_relay", turn.forceRelay());
        config.putAll(t.settings());
        return config;
    }

    @Override
    public Uni<WidgetConfig> config(String token, String origin) {
        return usableToken(token, origin).map(t -> {
            Map<String, Object> s = t.settings();
            Map<String, Object> texts = new LinkedHashMap<>(WorkflowConfigurationDefaults.WIDGET_TEXTS);
            Map<String, Object> own = JsonTree.asMap(s.get("texts"));
            for (String name : WorkflowConfigurationDefaults.WIDGET_TEXTS.keySet()) {
                Object value = own != null && own.get(name) instanceof String v ? v : s.get(name);
                if (value instanceof String text && !text.isBlank()) {
                    texts.put(name, text);
                }
            }
            return new WidgetConfig(t.workflowId(), s, texts, text(s, "theme", "light"),
                    text(s, "position", "bottom-right"), text(s, "buttonText", "Start Voice Call"),
                    text(s, "buttonColor", "#3B82F6"), text(s, "size", "medium"),
                    Boolean.TRUE.equals(s.get("autoStart")), turn.configured(), turn.forceRelay());
        });
    }

    private static String text(Map<String, Object> settings, String key, String fallback) {
        return settings.get(key) instanceof String s && !s.isBlank() ? s : fallback;
    }

    /** The session, unexpired, its token active and this page allowed. */
    private Uni<Resolved> resolve(String sessionToken, String origin) {
        return embeds.findSessionByHash(hash(sessionToken == null ? "" : sessionToken)).chain(found -> {
            EmbedSession session = found.orElseThrow(() -> new ResourceNotFoundException(INVALID_SESSION));
            if (!clock.instant().isBefore(session.expiresAt())) {
                throw new ForbiddenException("Session expired");
            }
            return embeds.findById(session.embedTokenId()).map(t -> {
                EmbedToken token = t.orElseThrow(() -> new ResourceNotFoundException(INVALID_TOKEN));
                if (!token.active()) {
                    throw new ForbiddenException("Embed token is inactive");
                }
                if (!EmbedOrigins.allowed(origin, token.allowedDomains())) {
                    throw new ForbiddenException("Domain not allowed: " + (origin == null ? "" : origin));
                }
                return new Resolved(session, token);
            });
        });
    }

    private record Resolved(EmbedSession session, EmbedToken token) {
    }

    @Override
    public Uni<EmbedSession> voiceSession(String sessionToken, String origin) {
        return resolve(sessionToken, origin).map(Resolved::session);
    }

    @Override
    public Uni<TurnCredentials> turnCredentials(String sessionToken, String origin) {
        return resolve(sessionToken, origin).map(r -> turn.forEmbedSession(sessionToken));
    }

    @Override
    public Uni<TextChatRecord> chat(String sessionToken, String origin) {
        return resolve(sessionToken, origin).chain(r -> chats.find(r.session().organizationId(),
                r.session().workflowId(), r.session().runId()));
    }

    @Override
    public Uni<TextChatRecord> send(String sessionToken, String origin, String text, Integer expectedRevision) {
        return resolve(sessionToken, origin).chain(r -> {
            EmbedSession s = r.session();
            if (!limiter.allow("embed-run:" + s.runId(), MESSAGES_PER_SECOND_PER_RUN, Duration.ofSeconds(1))
                    || !limiter.allow("embed-token:" + s.embedTokenId(), MESSAGES_PER_SECOND_PER_TOKEN,
                            Duration.ofSeconds(1))) {
                throw new TooManyRequestsException("Too many messages. Please slow down");
            }
            return chats.find(s.organizationId(), s.workflowId(), s.runId()).chain(record -> {
                if (record.run().completed()) {
                    throw new ConversationEndedException();
                }
                return chats.send(s.organizationId(), s.workflowId(), s.runId(), text, expectedRevision,
                        EmbedSessions.MAX_CHAT_TURNS);
            }).onFailure(UpstreamServiceException.class)
                    .transform(f -> new UpstreamServiceException("Assistant failed to respond"));
        });
    }

    @Override
    public Uni<TextChatRecord> end(String sessionToken, String origin, Integer expectedRevision) {
        return resolve(sessionToken, origin).chain(r -> chats.end(r.session().organizationId(),
                r.session().workflowId(), r.session().runId(), expectedRevision, ChatRuns.USER_HANGUP));
    }

    @Override
    public Uni<Boolean> configAllowed(String token, String origin) {
        return embeds.findByToken(token == null ? "" : token).map(found -> found.filter(EmbedToken::active)
                .map(t -> EmbedOrigins.allowed(origin, t.allowedDomains())).orElse(false));
    }

    @Override
    public Uni<Boolean> sessionAllowed(String sessionToken, String origin) {
        return embeds.findSessionByHash(hash(sessionToken == null ? "" : sessionToken)).chain(found -> found.isEmpty()
                ? Uni.createFrom().item(true)
                : embeds.findById(found.get().embedTokenId()).map(t -> t.map(token -> EmbedOrigins.allowed(origin,
                        token.allowedDomains())).orElse(true)));
    }

    private String secret() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static String hash(String sessionToken) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(sessionToken.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    private static String truncate(String value, int max) {
        return value.length() <= max ? value : value.substring(0, max);
    }
}
