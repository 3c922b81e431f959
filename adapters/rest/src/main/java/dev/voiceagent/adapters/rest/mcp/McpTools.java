package dev.voiceagent.adapters.rest.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.smallrye.mutiny.Uni;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/** The MCP server's tools: their names, descriptions and input schemas, and which of the resource's calls each makes. */
final class McpTools {

    private McpTools() {
    }

    private static Map<String, Object> object(Map<String, Object> properties, List<String> required) {
        return Map.of("type", "object", "properties", properties, "required", required);
    }

    private static final Map<String, Object> ID = Map.of("type", "integer", "description", "The workflow's id");
    private static final Map<String, Object> DEFINITION = Map.of("type", "object", "description",
            "The workflow_definition: {nodes: [{id, type, position {x, y}, data {...}}], edges: [{id, source, target,"
                    + " data {label, condition}}]}, as get_workflow returns it; node types and their fields are in"
                    + " list_node_types");

    static List<AsyncToolSpecification> all(McpResource r) {
        return List.of(
                tool("list_workflows", "The organization's workflows (voice agents): id, name, status, runs.",
                        object(Map.of(), List.of()), (r2, args) -> r.run(r2, p -> r.listWorkflows(p))),
                tool("get_workflow", "One workflow as JSON: its definition (nodes and edges), configurations and"
                                + " template variables.", object(Map.of("workflow_id", ID), List.of("workflow_id")),
                        (c, args) -> r.run(c, p -> r.getWorkflow(p, id(args)))),
                tool("create_workflow", "Creates a workflow from a definition, validated as the API validates it"
                                + " (a refusal says what is wrong, field by field).",
                        object(Map.of("name", Map.of("type", "string"), "workflow_definition", DEFINITION),
                                List.of("name", "workflow_definition")),
                        (c, args) -> r.run(c, p -> r.createWorkflow(p, (String) args.get("name"),
                                map(args.get("workflow_definition"))))),
                tool("save_workflow", "Saves a workflow's new definition (and name), validated as the API validates"
                                + " it; the editor's draft becomes this definition.",
                        object(Map.of("workflow_id", ID, "name", Map.of("type", "string"), "workflow_definition",
                                DEFINITION), List.of("workflow_id")),
                        (c, args) -> r.run(c, p -> r.saveWorkflow(p, id(args), (String) args.get("name"),
                                args.get("workflow_definition") == null ? null : map(args.get("workflow_definition"))))),
                tool("list_node_types", "The node types a workflow may use (startCall, agentNode, endCall, globalNode,"
                                + " ...), each with its fields, their types, defaults and hints, and the graph's rules.",
                        object(Map.of(), List.of()), (c, args) -> r.run(c, p -> Uni.createFrom().item(r.nodeTypes(c)))),
                tool("search_docs", "Searches this service's documentation (its README, API operations and design"
                                + " records): an answer with numbered sources, or the passages themselves.",
                        object(Map.of("query", Map.of("type", "string", "description", "What to look up")),
                                List.of("query")),
                        (c, args) -> r.run(c, p -> r.searchDocs(p, (String) args.get("query")))),
                tool("create_http_tool", "Creates an HTTP tool an agent's nodes can call: method, URL (with"
                                + " {{parameter}} placeholders), headers, parameters the model fills in.",
                        object(Map.of("name", Map.of("type", "string"), "description", Map.of("type", "string"),
                                "method", Map.of("type", "string", "enum", List.of("GET", "POST", "PUT", "PATCH",
                                        "DELETE")), "url", Map.of("type", "string"),
                                "headers", Map.of("type", "object"),
                                "parameters", Map.of("type", "array", "items", Map.of("type", "object",
                                        "properties", Map.of("name", Map.of("type", "string"), "type",
                                                Map.of("type", "string"), "description", Map.of("type", "string"),
                                                "required", Map.of("type", "boolean"))))),
                                List.of("name", "method", "url")),
                        (c, args) -> r.run(c, p -> r.createHttpTool(p, (String) args.get("name"),
                                (String) args.get("description"), httpConfig(args)))),
                tool("voice_prompting_guide", "How to write prompts for voice agents on this service: greetings,"
                                + " node prompts, transitions, extraction, tools, voicemail.",
                        object(Map.of(), List.of()), (c, args) -> r.run(c, p -> Uni.createFrom().item(r.guide()))));
    }

    private static AsyncToolSpecification tool(String name, String description, Map<String, Object> schema,
            BiFunction<McpTransportContext, Map<String, Object>,
                    reactor.core.publisher.Mono<McpSchema.CallToolResult>> call) {
        McpSchema.Tool tool = McpSchema.Tool.builder().name(name).description(description).inputSchema(schema).build();
        return new AsyncToolSpecification(tool, (context, request) -> call.apply(context,
                request.arguments() == null ? Map.of() : request.arguments()));
    }

    private static long id(Map<String, Object> args) {
        if (args.get("workflow_id") instanceof Number n) {
            return n.longValue();
        }
        throw new IllegalArgumentException("workflow_id must be a number");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        if (value instanceof Map<?, ?> m) {
            return (Map<String, Object>) m;
        }
        throw new IllegalArgumentException("workflow_definition must be an object");
    }

    private static Map<String, Object> httpConfig(Map<String, Object> args) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("method", args.get("method"));
        config.put("url", args.get("url"));
        if (args.get("headers") != null) {
            config.put("headers", args.get("headers"));
        }
        config.put("parameters", args.get("parameters") == null ? List.of() : args.get("parameters"));
        return config;
    }
}
