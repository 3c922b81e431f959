package dev.voiceagent.adapters.rest.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.adapters.rest.tool.ToolResource.ToolResponse;
import dev.voiceagent.adapters.rest.workflow.NodeTypeResource;
import dev.voiceagent.adapters.rest.workflow.WorkflowResponses.WorkflowResponse;
import dev.voiceagent.application.docs.DocsAssistantUseCase;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.tool.ToolUseCases.NewTool;
import dev.voiceagent.application.tool.ToolUseCases.ToolsUseCase;
import dev.voiceagent.application.workflow.CreateWorkflowCommand;
import dev.voiceagent.application.workflow.CreateWorkflowUseCase;
import dev.voiceagent.application.workflow.GetWorkflowUseCase;
import dev.voiceagent.application.workflow.ListWorkflowsUseCase;
import dev.voiceagent.application.workflow.UpdateWorkflowCommand;
import dev.voiceagent.application.workflow.UpdateWorkflowUseCase;
import dev.voiceagent.domain.tool.ToolCategory;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.annotations.Operation;
import reactor.core.publisher.Mono;

/**
 * This service as a Model Context Protocol server (streamable HTTP, stateless: each POST is one JSON-RPC request
 * answered in JSON, no event stream), authenticated as every other route (the organization's API key): tools with which
 * an assistant builds agents as the dashboard's editor does. The MCP Java SDK's stateless server answers the protocol
 * (initialize, tools/list, tools/call, ping); this route is its transport, and each tool calls the same use cases as
 * the REST routes, as the caller, so a workflow saved here is validated as one saved there.
 */
@Path("/api/v1/mcp")
@Singleton
public class McpResource {

    static final String GUIDE = "mcp/voice-prompting-guide.md";

    /** The SDK's handler, set when the server is built with this transport. */
    private static final class Transport implements McpStatelessServerTransport {
        private volatile McpStatelessServerHandler handler;

        @Override
        public void setMcpHandler(McpStatelessServerHandler handler) {
            this.handler = handler;
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.empty();
        }
    }

    private final Transport transport = new Transport();
    private final McpJsonMapper json;
    private final ObjectMapper mapper;
    private final Caller caller;
    private final ListWorkflowsUseCase list;
    private final GetWorkflowUseCase get;
    private final CreateWorkflowUseCase create;
    private final UpdateWorkflowUseCase update;
    private final ToolsUseCase tools;
    private final DocsAssistantUseCase docs;
    private final NodeTypeResource nodeTypes;
    private final String guide;

    public McpResource(ObjectMapper mapper, Caller caller, ListWorkflowsUseCase list, GetWorkflowUseCase get,
            CreateWorkflowUseCase create, UpdateWorkflowUseCase update, ToolsUseCase tools, DocsAssistantUseCase docs,
            NodeTypeResource nodeTypes) {
        this.mapper = mapper;
        this.json = new JacksonMcpJsonMapper(mapper);
        this.caller = caller;
        this.list = list;
        this.get = get;
        this.create = create;
        this.update = update;
        this.tools = tools;
        this.docs = docs;
        this.nodeTypes = nodeTypes;
        this.guide = resource(GUIDE);
        McpServer.async(transport).jsonMapper(json).serverInfo("voice-agent", "1")
                .instructions("Build voice agents (workflows: a graph of prompt nodes and edges) for this"
                        + " organization: read the node types and the voice-prompting guide first, then create or"
                        + " save workflows; every save is validated as the dashboard's.")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(McpTools.all(this))
                .build();
    }

    private static String resource(String path) {
        try (InputStream in = McpResource.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @NonBlocking
    @Operation(summary = "MCP", description = "The Model Context Protocol endpoint (streamable HTTP, stateless):"
            + " one JSON-RPC request per POST, answered in JSON; notifications are accepted with 202")
    public Uni<Response> message(String body, @Context HttpServerRequest request) {
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(json, body);
        } catch (IOException | RuntimeException e) { // not JSON, not an object, not JSON-RPC
            return Uni.createFrom().item(Response.status(400).type(MediaType.APPLICATION_JSON)
                    .entity(Map.of("detail", "Not a JSON-RPC message"
                            + (e.getMessage() == null ? "" : ": " + e.getMessage()))).build());
        }
        Principal principal = caller.principal();
        // the use cases run on this request's Vert.x context, as a REST route's do (the SDK may hop threads)
        io.vertx.core.Context vertx = Vertx.currentContext();
        McpTransportContext context = McpTransportContext.create(Map.of(Principal.class.getName(), principal,
                HttpServerRequest.class.getName(), request, io.vertx.core.Context.class.getName(), vertx));
        McpStatelessServerHandler handler = transport.handler;
        return switch (message) {
            case McpSchema.JSONRPCRequest r -> Uni.createFrom().completionStage(() -> handler.handleRequest(context, r)
                            .toFuture())
                    .map(response -> {
                        try {
                            return Response.ok(json.writeValueAsString(response), MediaType.APPLICATION_JSON).build();
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
            case McpSchema.JSONRPCNotification n -> Uni.createFrom().completionStage(() -> handler
                    .handleNotification(context, n).toFuture()).replaceWith(Response.accepted().build());
            default -> Uni.createFrom().item(Response.status(400).type(MediaType.APPLICATION_JSON)
                    .entity(Map.of("detail", "The server accepts requests and notifications only")).build());
        };
    }

    @GET
    @NonBlocking
    @Operation(summary = "MCP event stream", description = "Not offered: this server is stateless (405, as the"
            + " protocol allows)")
    public Response stream() {
        return Response.status(405).header("Allow", "POST").build();
    }

    // ---- what the tools call (McpTools describes them) ----

    /** A tool's work as the caller of the request: its answer as JSON text, or an error result with the reason. */
    Mono<McpSchema.CallToolResult> run(McpTransportContext context, Function<Principal, Uni<?>> work) {
        Principal principal = (Principal) context.get(Principal.class.getName());
        io.vertx.core.Context vertx = (io.vertx.core.Context) context.get(io.vertx.core.Context.class.getName());
        Uni<McpSchema.CallToolResult> result = Uni.createFrom().deferred(() -> work.apply(principal))
                .runSubscriptionOn(task -> vertx.runOnContext(v -> task.run()))
                .map(value -> McpSchema.CallToolResult.builder().addTextContent(value instanceof String s ? s
                        : write(value)).isError(false).build())
                .onFailure().recoverWithItem(failure -> McpSchema.CallToolResult.builder()
                        .addTextContent(failure.getMessage() == null ? failure.getClass().getSimpleName()
                                : failure.getMessage()).isError(true).build());
        return Mono.fromFuture(() -> result.subscribeAsCompletionStage());
    }

    private String write(Object value) {
        try {
            return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Uni<?> listWorkflows(Principal principal) {
        return list.list(principal, Set.of()).map(items -> items.stream().map(i -> {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("id", i.id());
            out.put("name", i.name());
            out.put("status", i.status().wireName());
            out.put("total_runs", i.totalRuns());
            out.put("created_at", i.createdAt().toString());
            return out;
        }).toList());
    }

    Uni<?> getWorkflow(Principal principal, long id) {
        return get.get(principal, id).map(WorkflowResponse::of);
    }

    Uni<?> createWorkflow(Principal principal, String name, Map<String, Object> definition) {
        return create.create(new CreateWorkflowCommand(principal, name, WorkflowDefinition.of(definition), null, null))
                .map(WorkflowResponse::of);
    }

    Uni<?> saveWorkflow(Principal principal, long id, String name, Map<String, Object> definition) {
        return update.update(new UpdateWorkflowCommand(principal, id, name, definition == null ? null
                : WorkflowDefinition.of(definition), null, null)).map(WorkflowResponse::of);
    }

    Uni<?> createHttpTool(Principal principal, String name, String description, Map<String, Object> config) {
        return tools.create(principal, new NewTool(name, description, ToolCategory.HTTP_API, null, null,
                Map.of("schema_version", 1, "type", "http_api", "config", config))).map(ToolResponse::of);
    }

    Uni<?> searchDocs(Principal principal, String query) {
        return docs.chat(principal, query, List.of());
    }

    Object nodeTypes(McpTransportContext context) {
        return nodeTypes.all((HttpServerRequest) context.get(HttpServerRequest.class.getName()));
    }

    String guide() {
        return guide;
    }
}
