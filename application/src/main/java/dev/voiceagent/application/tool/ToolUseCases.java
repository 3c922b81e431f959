package dev.voiceagent.application.tool;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.tool.ToolRepository.StoredTool;
import dev.voiceagent.domain.tool.Credential;
import dev.voiceagent.domain.tool.CredentialType;
import dev.voiceagent.domain.tool.ToolCategory;
import dev.voiceagent.domain.tool.ToolStatus;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Credentials and tools of an organization. */
public final class ToolUseCases {

    private ToolUseCases() {
    }

    /** A change to a credential: null fields stay as they are. */
    public record CredentialChange(String name, String description, CredentialType credentialType,
            Map<String, String> credentialData) {
    }

    /** A new tool; null icon, color and category take their defaults. */
    public record NewTool(String name, String description, ToolCategory category, String icon, String iconColor,
            Map<String, Object> definition) {
    }

    /** A change to a tool: null fields stay as they are. */
    public record ToolChange(String name, String description, String icon, String iconColor,
            Map<String, Object> definition, ToolStatus status) {
    }

    /** What a test request did: the request as sent (secrets hidden) and the answer. */
    public record ToolTestResult(String status, Integer statusCode, Object data, String error, String hint,
            String requestMethod, String requestUrl, Map<String, String> requestHeaders, Map<String, Object> requestBody,
            Map<String, Object> requestParams, long durationMs, Map<String, String> responseHeaders,
            String responseBody, boolean truncated) {
    }

    public record McpRefresh(String toolUuid, List<Map<String, Object>> discoveredTools, String error) {
    }

    public interface CredentialsUseCase {
        Uni<List<Credential>> list(Principal principal);

        Uni<Credential> get(Principal principal, String uuid);

        Uni<Credential> create(Principal principal, CredentialChange request);

        Uni<Credential> update(Principal principal, String uuid, CredentialChange change);

        /** 409 naming the tools that authenticate with it. */
        Uni<Void> delete(Principal principal, String uuid);
    }

    public interface ToolsUseCase {
        /** The tools of these statuses (none given: every tool but the archived ones, as the reference lists). */
        Uni<List<StoredTool>> list(Principal principal, Set<ToolStatus> statuses, ToolCategory category);

        Uni<StoredTool> get(Principal principal, String uuid);

        Uni<StoredTool> create(Principal principal, NewTool request);

        Uni<StoredTool> update(Principal principal, String uuid, ToolChange change);

        Uni<StoredTool> archive(Principal principal, String uuid);

        Uni<StoredTool> unarchive(Principal principal, String uuid);
    }

    public interface TestToolUseCase {
        /** Performs an http_api tool's request with the given arguments (400 for other categories). */
        Uni<ToolTestResult> test(Principal principal, String uuid, Map<String, Object> arguments,
                Map<String, Object> presetValues);
    }

    public interface RefreshMcpToolUseCase {
        /** Lists the MCP server's tools and stores them (filtered by tools_filter) in the definition. */
        Uni<McpRefresh> refresh(Principal principal, String uuid);
    }
}
