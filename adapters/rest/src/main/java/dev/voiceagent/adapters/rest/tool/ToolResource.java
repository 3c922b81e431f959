package dev.voiceagent.adapters.rest.tool;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.adapters.rest.shared.RequestValidationException;
import dev.voiceagent.adapters.rest.shared.ValidationError;
import dev.voiceagent.application.tool.ToolRepository.StoredTool;
import dev.voiceagent.application.tool.ToolUseCases.McpRefresh;
import dev.voiceagent.application.tool.ToolUseCases.NewTool;
import dev.voiceagent.application.tool.ToolUseCases.RefreshMcpToolUseCase;
import dev.voiceagent.application.tool.ToolUseCases.TestToolUseCase;
import dev.voiceagent.application.tool.ToolUseCases.ToolChange;
import dev.voiceagent.application.tool.ToolUseCases.ToolTestResult;
import dev.voiceagent.application.tool.ToolUseCases.ToolsUseCase;
import dev.voiceagent.domain.tool.Tool;
import dev.voiceagent.domain.tool.ToolCategory;
import dev.voiceagent.domain.tool.ToolStatus;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The organization's tools: HTTP APIs, end and transfer call, calculator, MCP servers. A delete archives (nodes keep
 * naming the tool); the test performs the real request through the address guard.
 */
@Path("/api/v1/tools")
public class ToolResource {

    static final String[] CATEGORIES = {"http_api", "end_call", "transfer_call", "calculator", "native", "integration",
        "mcp"};

    /** The definition's documented shape (the body carries it as an object checked by its category). */
    @Schema(name = "ToolDefinition", description = "{schema_version: 1, type, config}: the config of the type"
            + " (http_api: method, url, headers, credential_uuid, parameters, preset_parameters, timeout_ms ≤ 30000,"
            + " body_template; end_call: messageType, customMessage, endCallReason; transfer_call: destination_source,"
            + " destination, timeout, resolver, context_mapping; mcp: url, credential_uuid, tools_filter, timeout_secs,"
            + " discovered_tools; calculator: none)")
    public record ToolDefinitionDocument(@Schema(defaultValue = "1") Integer schemaVersion,
            @Schema(enumeration = {"http_api", "end_call", "transfer_call", "calculator", "native", "integration",
                "mcp"}) String type,
            @Schema(nullable = true, implementation = ToolConfigDocument.class) Map<String, Object> config) {
    }

    /** Every type's config fields in one documented object (a definition carries those of its type). */
    @Schema(name = "ToolConfig", description = "http_api: method .. body_template; end_call: messageType ..;"
            + " transfer_call: destination_source ..; mcp: transport .. discovered_tools")
    public record ToolConfigDocument(
            @Schema(nullable = true, enumeration = {"GET", "POST", "PUT", "PATCH", "DELETE"}) String method,
            @Schema(nullable = true) String url, @Schema(nullable = true) Map<String, String> headers,
            @Schema(nullable = true) String credentialUuid, @Schema(nullable = true) List<Map<String, Object>> parameters,
            @Schema(nullable = true) List<Map<String, Object>> presetParameters,
            @Schema(nullable = true, maximum = "30000", defaultValue = "5000") Integer timeoutMs,
            @JsonProperty("customMessage") @Schema(nullable = true) String customMessage,
            @JsonProperty("customMessageType") @Schema(nullable = true, enumeration = {"text", "audio"})
            String customMessageType,
            @JsonProperty("customMessageRecordingId") @Schema(nullable = true) String customMessageRecordingId,
            @Schema(nullable = true) Map<String, Object> bodyTemplate,
            @JsonProperty("messageType") @Schema(nullable = true, enumeration = {"none", "custom", "audio"})
            String messageType,
            @JsonProperty("audioRecordingId") @Schema(nullable = true) String audioRecordingId,
            @JsonProperty("endCallReason") @Schema(nullable = true) Boolean endCallReason,
            @JsonProperty("endCallReasonDescription") @Schema(nullable = true) String endCallReasonDescription,
            @Schema(nullable = true, enumeration = {"static", "dynamic", "context_mapping"}) String destinationSource,
            @Schema(nullable = true) String destination, @Schema(nullable = true) Integer timeout,
            @Schema(nullable = true) Map<String, Object> resolver, @Schema(nullable = true) Map<String, Object> contextMapping,
            @Schema(nullable = true, enumeration = {"streamable_http"}) String transport,
            @Schema(nullable = true) List<String> toolsFilter, @Schema(nullable = true) Integer timeoutSecs,
            @Schema(nullable = true) Integer sseReadTimeoutSecs,
            @Schema(nullable = true) List<Map<String, Object>> discoveredTools) {
    }

    public record CreateToolRequest(@NotBlank @Size(max = Tool.MAX_NAME) String name,
            @Schema(nullable = true) @Size(max = Tool.MAX_DESCRIPTION) String description,
            @Schema(enumeration = {"http_api", "end_call", "transfer_call", "calculator", "native", "integration",
                "mcp"}, defaultValue = "http_api", description = "Must equal definition.type") String category,
            @Schema(nullable = true, defaultValue = "globe") @Size(max = 50) String icon,
            @Schema(nullable = true, defaultValue = "#3B82F6") @Size(max = 7) String iconColor,
            @NotNull @Schema(implementation = ToolDefinitionDocument.class) Map<String, Object> definition) {
    }

    public record UpdateToolRequest(@Schema(nullable = true) @Size(min = 1, max = Tool.MAX_NAME) String name,
            @Schema(nullable = true) @Size(max = Tool.MAX_DESCRIPTION) String description,
            @Schema(nullable = true) @Size(max = 50) String icon,
            @Schema(nullable = true) @Size(max = 7) String iconColor,
            @Schema(nullable = true, implementation = ToolDefinitionDocument.class) Map<String, Object> definition,
            @Schema(nullable = true, enumeration = {"active", "archived", "draft"}) String status) {
    }

    public record CreatedByResponse(long id, String providerId) {
    }

    public record ToolResponse(long id, String toolUuid, String name, @Schema(nullable = true) String description,
            String category, @Schema(nullable = true) String icon, @Schema(nullable = true) String iconColor,
            String status, Map<String, Object> definition,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class, nullable = true)
            Instant updatedAt,
            @Schema(nullable = true) CreatedByResponse createdBy) {

        public static ToolResponse of(StoredTool stored) {
            Tool t = stored.tool();
            return new ToolResponse(t.id(), t.uuid(), t.name(), t.description(), t.category().wireName(), t.icon(),
                    t.iconColor(), t.status().wireName(), t.definition(), t.createdAt(), t.updatedAt(),
                    t.createdBy() == null || stored.creatorProviderId() == null ? null
                            : new CreatedByResponse(t.createdBy(), stored.creatorProviderId()));
        }
    }

    public record DeleteToolResponse(String status, String toolUuid) {
    }

    public record ToolTestRequest(
            @Schema(nullable = true, description = "Values for parameters normally supplied by the model")
            Map<String, Object> llmParams,
            @Schema(nullable = true, description = "Resolved values for parameters normally supplied from presets")
            Map<String, Object> presetParams,
            @Schema(nullable = true, description = "The same as llm_params (either may be given)")
            Map<String, Object> arguments) {
    }

    public record ToolTestResponse(String status, @Schema(nullable = true) Integer statusCode,
            @Schema(nullable = true, description = "The answer's JSON, or its text") Object data,
            @Schema(nullable = true) String error, @Schema(nullable = true) String hint, String requestMethod,
            String requestUrl, Map<String, String> requestHeaders,
            @Schema(nullable = true) Map<String, Object> requestBody,
            @Schema(nullable = true) Map<String, Object> requestParams, long durationMs,
            @Schema(description = "The answer's headers (names in lower case)") Map<String, String> headers,
            @Schema(description = "The answer's body as text, cut at 1 MiB") String body,
            @Schema(description = "Whether the body was cut") boolean truncated) {

        static ToolTestResponse of(ToolTestResult r) {
            return new ToolTestResponse(r.status(), r.statusCode(), r.data(), r.error(), r.hint(), r.requestMethod(),
                    r.requestUrl(), r.requestHeaders(), r.requestBody(), r.requestParams(), r.durationMs(),
                    r.responseHeaders(), r.responseBody(), r.truncated());
        }
    }

    public record McpRefreshResponse(String toolUuid, List<Map<String, Object>> discoveredTools,
            @Schema(nullable = true) String error) {

        static McpRefreshResponse of(McpRefresh r) {
            return new McpRefreshResponse(r.toolUuid(), r.discoveredTools(), r.error());
        }
    }

    private final Caller caller;
    private final ToolsUseCase tools;
    private final TestToolUseCase test;
    private final RefreshMcpToolUseCase refresh;

    public ToolResource(Caller caller, ToolsUseCase tools, TestToolUseCase test, RefreshMcpToolUseCase refresh) {
        this.caller = caller;
        this.tools = tools;
        this.test = test;
        this.refresh = refresh;
    }

    @GET
    @Path("/")
    @Operation(summary = "List Tools", description = "Newest first; status filters one status or a comma-separated"
            + " list (active, archived, draft; archived tools are left out unless asked for), category one category")
    public Uni<List<ToolResponse>> list(@QueryParam("status") String status, @QueryParam("category") String category) {
        Set<ToolStatus> statuses = EnumSet.noneOf(ToolStatus.class);
        if (status != null) {
            for (String one : status.split(",", -1)) {
                statuses.add(parse("status", one.strip(), ToolStatus::byWireName,
                        new String[] {"active", "archived", "draft"}));
            }
        }
        ToolCategory c = category == null ? null : parse("category", category, ToolCategory::byWireName, CATEGORIES);
        return tools.list(caller.principal(), statuses, c).map(all -> all.stream().map(ToolResponse::of).toList());
    }

    @POST
    @Path("/")
    @Operation(summary = "Create Tool", description = "The definition is checked for its category (a 422 at each"
            + " field); its credentials must exist")
    public Uni<ToolResponse> create(@NotNull @Valid CreateToolRequest body) {
        ToolCategory category = body.category() == null ? null
                : parse("category", body.category(), ToolCategory::byWireName, CATEGORIES, "body");
        return tools.create(caller.principal(), new NewTool(body.name(), body.description(), category, body.icon(),
                body.iconColor(), body.definition())).map(ToolResponse::of);
    }

    @GET
    @Path("/{tool_uuid}")
    @Operation(summary = "Get Tool")
    public Uni<ToolResponse> get(@PathParam("tool_uuid") String uuid) {
        return tools.get(caller.principal(), uuid).map(ToolResponse::of);
    }

    @PUT
    @Path("/{tool_uuid}")
    @Operation(summary = "Update Tool", description = "Omitted fields stay; the category cannot change")
    public Uni<ToolResponse> update(@PathParam("tool_uuid") String uuid, @NotNull @Valid UpdateToolRequest body) {
        ToolStatus status = body.status() == null ? null : parse("status", body.status(), ToolStatus::byWireName,
                new String[] {"active", "archived", "draft"}, "body");
        return tools.update(caller.principal(), uuid, new ToolChange(body.name(), body.description(), body.icon(),
                body.iconColor(), body.definition(), status)).map(ToolResponse::of);
    }

    @DELETE
    @Path("/{tool_uuid}")
    @Operation(summary = "Delete Tool", description = "Archives the tool (unarchive brings it back)")
    public Uni<DeleteToolResponse> delete(@PathParam("tool_uuid") String uuid) {
        return tools.archive(caller.principal(), uuid).map(t -> new DeleteToolResponse("archived", uuid));
    }

    @POST
    @Path("/{tool_uuid}/unarchive")
    @Operation(summary = "Unarchive Tool")
    public Uni<ToolResponse> unarchive(@PathParam("tool_uuid") String uuid) {
        return tools.unarchive(caller.principal(), uuid).map(ToolResponse::of);
    }

    @POST
    @Path("/{tool_uuid}/test")
    @Operation(summary = "Test Tool", description = "Performs an http_api tool's real request (other categories:"
            + " 400). An answer of any status is a 200 describing it; an address the installation does not allow is a"
            + " 400; an API that cannot be reached or times out is a 502")
    public Uni<ToolTestResponse> test(@PathParam("tool_uuid") String uuid, @Valid ToolTestRequest body) {
        Map<String, Object> arguments = body == null ? null
                : Optional.ofNullable(body.llmParams()).orElse(body.arguments());
        return test.test(caller.principal(), uuid, arguments, body == null ? null : body.presetParams())
                .map(ToolTestResponse::of);
    }

    @POST
    @Path("/{tool_uuid}/mcp/refresh")
    @Operation(summary = "Refresh Mcp Tool", description = "Lists the MCP server's tools (streamable HTTP transport)"
            + " and stores those tools_filter keeps; a server that fails is a 502 with its message")
    public Uni<McpRefreshResponse> refreshMcp(@PathParam("tool_uuid") String uuid) {
        return refresh.refresh(caller.principal(), uuid).map(McpRefreshResponse::of);
    }

    private static <T> T parse(String field, String value, Function<String, Optional<T>> byWireName, String[] allowed) {
        return parse(field, value, byWireName, allowed, "query");
    }

    private static <T> T parse(String field, String value, Function<String, Optional<T>> byWireName, String[] allowed,
            String where) {
        return byWireName.apply(value).orElseThrow(() -> new RequestValidationException(ValidationError.of(
                List.of(where, field), "Input should be " + String.join(", ", Arrays.stream(allowed)
                        .map(a -> "'" + a + "'").toList()), "enum", value)));
    }
}
