package dev.voiceagent.application.tool;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.tool.ToolRepository.StoredTool;
import dev.voiceagent.application.tool.ToolUseCases.McpRefresh;
import dev.voiceagent.application.tool.ToolUseCases.NewTool;
import dev.voiceagent.application.tool.ToolUseCases.RefreshMcpToolUseCase;
import dev.voiceagent.application.tool.ToolUseCases.TestToolUseCase;
import dev.voiceagent.application.tool.ToolUseCases.ToolChange;
import dev.voiceagent.application.tool.ToolUseCases.ToolTestResult;
import dev.voiceagent.application.tool.ToolUseCases.ToolsUseCase;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.tool.Credential;
import dev.voiceagent.domain.tool.HttpToolRequest;
import dev.voiceagent.domain.tool.Tool;
import dev.voiceagent.domain.tool.ToolCategory;
import dev.voiceagent.domain.tool.ToolDefinitions;
import dev.voiceagent.domain.tool.ToolStatus;
import dev.voiceagent.domain.workflow.JsonTree;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/** Tools: definitions checked for their category and their credentials, tested for real, MCP servers listed. */
@Singleton
public class ToolService implements ToolsUseCase, TestToolUseCase, RefreshMcpToolUseCase {

    static final String NOT_FOUND = "Tool not found";
    static final String DEFAULT_ICON = "globe";
    static final String DEFAULT_COLOR = "#3B82F6";

    private final ToolRepository tools;
    private final CredentialRepository credentials;
    private final ToolHttp http;
    private final McpServers mcp;
    private final Clock clock;

    public ToolService(ToolRepository tools, CredentialRepository credentials, ToolHttp http, McpServers mcp,
            Clock clock) {
        this.tools = tools;
        this.credentials = credentials;
        this.http = http;
        this.mcp = mcp;
        this.clock = clock;
    }

    @Override
    public Uni<List<StoredTool>> list(Principal principal, Set<ToolStatus> statuses, ToolCategory category) {
        return tools.list(principal.organizationId(), statuses.isEmpty()
                ? EnumSet.complementOf(EnumSet.of(ToolStatus.ARCHIVED)) : statuses, category);
    }

    @Override
    public Uni<StoredTool> get(Principal principal, String uuid) {
        return tools.find(principal.organizationId(), uuid)
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND)));
    }

    @Override
    public Uni<StoredTool> create(Principal principal, NewTool request) {
        ToolCategory category = request.category() == null ? ToolCategory.HTTP_API : request.category();
        return credentialsExist(principal.organizationId(), request.definition()).chain(() -> {
            Map<String, Object> definition = ToolDefinitions.normalized(category, request.definition());
            Instant now = clock.instant();
            Tool tool = new Tool(null, principal.organizationId(), UUID.randomUUID().toString(), request.name(),
                    request.description(), category, request.icon() == null ? DEFAULT_ICON : request.icon(),
                    request.iconColor() == null ? DEFAULT_COLOR : request.iconColor(), ToolStatus.ACTIVE, definition,
                    principal.userId(), now, now);
            return tools.insert(tool);
        });
    }

    @Override
    public Uni<StoredTool> update(Principal principal, String uuid, ToolChange change) {
        return get(principal, uuid).call(() -> credentialsExist(principal.organizationId(), change.definition()))
                .chain(stored -> {
            Tool old = stored.tool();
            Map<String, Object> definition = old.definition();
            if (change.definition() != null) {
                definition = ToolDefinitions.normalized(old.category(), keepDiscovered(old, change.definition()));
            }
            Tool next = new Tool(old.id(), old.organizationId(), old.uuid(),
                    change.name() == null ? old.name() : change.name(),
                    change.description() == null ? old.description() : change.description(), old.category(),
                    change.icon() == null ? old.icon() : change.icon(),
                    change.iconColor() == null ? old.iconColor() : change.iconColor(),
                    change.status() == null ? old.status() : change.status(), definition, old.createdBy(),
                    old.createdAt(), clock.instant());
            return tools.update(next);
        });
    }

    @Override
    public Uni<StoredTool> archive(Principal principal, String uuid) {
        return get(principal, uuid).chain(stored -> tools.update(stored.tool().withStatus(ToolStatus.ARCHIVED,
                clock.instant())));
    }

    @Override
    public Uni<StoredTool> unarchive(Principal principal, String uuid) {
        return get(principal, uuid).chain(stored -> stored.tool().status() != ToolStatus.ARCHIVED
                ? Uni.createFrom().item(stored)
                : tools.update(stored.tool().withStatus(ToolStatus.ACTIVE, clock.instant())));
    }

    @Override
    public Uni<ToolTestResult> test(Principal principal, String uuid, Map<String, Object> arguments,
            Map<String, Object> presetValues) {
        return get(principal, uuid).chain(stored -> {
            Tool tool = stored.tool();
            if (tool.category() != ToolCategory.HTTP_API) {
                throw new DomainRuleViolation("Only http_api tools can be tested; this one is " + tool.category()
                        .wireName());
            }
            return credentialOf(tool).map(credential -> HttpToolRequest.plan(tool, arguments, presetValues,
                    Map.of(), credential.orElse(null)));
        }).chain(request -> http.send(request).map(reply -> result(request, reply)));
    }

    @Override
    public Uni<McpRefresh> refresh(Principal principal, String uuid) {
        return get(principal, uuid).chain(stored -> {
            Tool tool = stored.tool();
            if (tool.category() != ToolCategory.MCP) {
                throw new DomainRuleViolation("Only mcp tools can be refreshed; this one is " + tool.category()
                        .wireName());
            }
            Map<String, Object> config = tool.config();
            Duration timeout = Duration.ofSeconds(config.get("timeout_secs") instanceof Number n ? n.longValue() : 30);
            return credentialOf(tool).chain(credential -> mcp.listTools((String) config.get("url"),
                            credential.map(Credential::headers).orElse(Map.of()), timeout))
                    .chain(listed -> {
                        List<?> wanted = JsonTree.asList(config.get("tools_filter"));
                        Set<String> filter = wanted == null ? Set.of()
                                : wanted.stream().map(String::valueOf).collect(Collectors.toSet());
                        List<Map<String, Object>> discovered = new ArrayList<>();
                        for (McpServers.McpTool t : listed) {
                            if (filter.isEmpty() || filter.contains(t.name())) {
                                Map<String, Object> entry = new LinkedHashMap<>();
                                entry.put("name", t.name());
                                entry.put("description", t.description());
                                entry.put("input_schema", t.inputSchema());
                                discovered.add(entry);
                            }
                        }
                        Map<String, Object> definition = JsonTree.asMap(JsonTree.thaw(tool.definition()));
                        Map<String, Object> nextConfig = JsonTree.asMap(definition.get("config"));
                        nextConfig.put("discovered_tools", discovered);
                        return tools.update(tool.withDefinition(definition, clock.instant()))
                                .map(saved -> new McpRefresh(tool.uuid(), discovered, null));
                    });
        });
    }

    /** An MCP definition sent back without its discovered tools keeps them while the server stays the same. */
    private static Map<String, Object> keepDiscovered(Tool old, Map<String, Object> incoming) {
        if (old.category() != ToolCategory.MCP || incoming == null) {
            return incoming;
        }
        Map<String, Object> config = JsonTree.asMap(incoming.get("config"));
        if (config == null || config.containsKey("discovered_tools")
                || !Objects.equals(config.get("url"), old.config().get("url"))) {
            return incoming;
        }
        Map<String, Object> copy = new LinkedHashMap<>(incoming);
        Map<String, Object> nextConfig = new LinkedHashMap<>(config);
        nextConfig.put("discovered_tools", old.config().get("discovered_tools"));
        copy.put("config", nextConfig);
        return copy;
    }

    private Uni<Optional<Credential>> credentialOf(Tool tool) {
        Object uuid = tool.config().get("credential_uuid");
        if (!(uuid instanceof String s) || s.isBlank()) {
            return Uni.createFrom().item(Optional.empty());
        }
        return credentials.find(tool.organizationId(), s).map(found -> {
            if (found.isEmpty()) {
                throw new DomainRuleViolation("The tool's credential " + s + " no longer exists; choose another one");
            }
            return found;
        });
    }

    /**
     * Every credential a definition names exists in the organization: another organization's (or a deleted) one is
     * a 404, checked before the definition itself.
     */
    private Uni<Void> credentialsExist(long organizationId, Map<String, Object> definition) {
        Set<String> wanted = ToolDefinitions.credentialUuids(definition);
        if (wanted.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return credentials.findAll(organizationId, wanted).map(found -> {
            Set<String> have = found.stream().map(Credential::uuid).collect(Collectors.toSet());
            for (String uuid : wanted) {
                if (!have.contains(uuid)) {
                    throw new ResourceNotFoundException("Credential not found: " + uuid);
                }
            }
            return null;
        });
    }

    static ToolTestResult result(HttpToolRequest request, ToolHttp.Reply reply) {
        boolean ok = reply.statusCode() / 100 == 2;
        Object data = reply.json() != null ? reply.json() : reply.body();
        String error = ok ? null : "HTTP " + reply.statusCode();
        return new ToolTestResult(ok ? "success" : "error", reply.statusCode(), data, error,
                ok ? null : hint(reply.statusCode()), request.method(), request.url(), request.shownHeaders(),
                request.body(), request.params(), reply.durationMs(), reply.headers(), reply.body(), reply.truncated());
    }

    private static String hint(int status) {
        return switch (status) {
            case 401, 403 -> "The API refused the credentials: check the tool's credential and its headers";
            case 404 -> "The API has nothing at this URL: check the URL and its {{placeholders}}";
            case 400, 422 -> "The API refused the request: check the parameters and the body template";
            case 429 -> "The API is rate limiting these requests";
            default -> status >= 500 ? "The API failed; try again later or check its status" : null;
        };
    }
}
