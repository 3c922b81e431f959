package dev.voiceagent.domain.tool;

import dev.voiceagent.domain.conversation.FunctionSpec;
import dev.voiceagent.domain.workflow.JsonTree;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import dev.voiceagent.domain.workflow.WorkflowDefinition.Edge;
import dev.voiceagent.domain.workflow.WorkflowDefinition.Node;
import dev.voiceagent.domain.workflow.WorkflowError;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How a node's tools (data.tool_uuids) become functions the model is offered, and the definition checks they
 * bring: a tool's function name is its name the way a transition's is its label (lower case, [a-z0-9_]); within
 * a node the names are unique and no tool takes the name of one of the node's transitions. An MCP tool's
 * functions are the names its server lists, not checked here.
 */
public final class ToolFunctions {

    public static final String TOOL_UUIDS = "tool_uuids";

    private ToolFunctions() {
    }

    public static String functionName(Tool tool) {
        return WorkflowDefinition.transitionToolName(tool.name());
    }

    /** The tool uuids a node names, in order, without repeats. */
    public static List<String> toolUuids(Node node) {
        Set<String> out = new LinkedHashSet<>();
        List<?> raw = node.data() == null ? null : JsonTree.asList(node.data().get(TOOL_UUIDS));
        if (raw != null) {
            for (Object o : raw) {
                if (o instanceof String s && !s.isBlank()) {
                    out.add(s);
                }
            }
        }
        return List.copyOf(out);
    }

    /** Every tool uuid any node of the definition names. */
    public static Set<String> toolUuids(WorkflowDefinition definition) {
        Set<String> out = new LinkedHashSet<>();
        definition.nodes().forEach(n -> out.addAll(toolUuids(n)));
        return out;
    }

    /**
     * The problems the nodes' tools bring, given the organization's tools by uuid: a tool that does not exist
     * (or is archived), two tools of a node with the same function name, a tool named like one of the node's
     * transitions.
     */
    public static List<WorkflowError> check(WorkflowDefinition definition, Map<String, Tool> tools) {
        List<WorkflowError> errors = new ArrayList<>();
        Map<String, List<Edge>> outgoing = new LinkedHashMap<>();
        for (Edge edge : definition.edges()) {
            if (edge.source() != null && edge.label() != null && !edge.label().isBlank()) {
                outgoing.computeIfAbsent(edge.source(), k -> new ArrayList<>()).add(edge);
            }
        }
        for (Node node : definition.nodes()) {
            Map<String, Tool> byName = new LinkedHashMap<>();
            for (String uuid : toolUuids(node)) {
                Tool tool = tools.get(uuid);
                if (tool == null) {
                    errors.add(WorkflowError.node(node.id(), "data." + TOOL_UUIDS, "Tool " + uuid + " does not exist"));
                    continue;
                }
                if (tool.status() == ToolStatus.ARCHIVED) {
                    errors.add(WorkflowError.node(node.id(), "data." + TOOL_UUIDS, "Tool \"" + tool.name()
                            + "\" is archived: unarchive it or remove it from this node"));
                    continue;
                }
                if (tool.incomplete()) {
                    errors.add(WorkflowError.node(node.id(), "data." + TOOL_UUIDS, "Tool \"" + tool.name()
                            + "\" has no URL yet: set its URL or remove it from this node"));
                    continue;
                }
                if (tool.category() == ToolCategory.MCP) {
                    continue;
                }
                Tool first = byName.putIfAbsent(functionName(tool), tool);
                if (first != null) {
                    errors.add(WorkflowError.node(node.id(), "data." + TOOL_UUIDS, "Tool name \"" + functionName(tool)
                            + "\" is duplicated for this node (\"" + first.name() + "\" and \"" + tool.name()
                            + "\"). Rename one of the tools."));
                }
            }
            for (Edge edge : outgoing.getOrDefault(node.id(), List.of())) {
                Tool clash = byName.get(WorkflowDefinition.transitionToolName(edge.label()));
                if (clash != null) {
                    errors.add(WorkflowError.edge(edge.id(), "data.label", "Transition tool name \""
                            + WorkflowDefinition.transitionToolName(edge.label()) + "\" collides with the tool \""
                            + clash.name() + "\" of its source node. Use another edge label or rename the tool."));
                }
            }
        }
        return errors;
    }

    /**
     * The function a tool offers in a text conversation: http_api (its parameters), calculator (an expression),
     * end_call and transfer_call (no arguments, or the reason / the transfer's parameters). MCP, native and
     * integration tools run in the voice runtime only: none here.
     */
    public static FunctionSpec spec(Tool tool) {
        String description = tool.description() == null || tool.description().isBlank() ? null : tool.description();
        Map<String, Object> config = tool.config();
        if (tool.incomplete()) {
            return null; // nothing to call yet
        }
        return switch (tool.category()) {
            case HTTP_API -> new FunctionSpec(functionName(tool), description == null ? "Call " + tool.name()
                    : description, parameters(config.get("parameters")), FunctionSpec.Kind.TOOL);
            case CALCULATOR -> new FunctionSpec(functionName(tool), description == null
                    ? "Evaluate an arithmetic expression (+ - * / % ^, parentheses, sqrt, abs, round, floor, ceil)"
                    : description, FunctionSpec.objectSchema(Map.of("expression", Map.of("type", "string",
                    "description", "The arithmetic expression, e.g. (12.5 * 3) + 4"))), FunctionSpec.Kind.TOOL);
            case END_CALL -> new FunctionSpec(functionName(tool), description == null ? "End the conversation"
                    : description, Boolean.TRUE.equals(config.get("endCallReason"))
                    ? FunctionSpec.objectSchema(Map.of("reason", Map.of("type", "string", "description",
                            config.get("endCallReasonDescription") instanceof String s && !s.isBlank() ? s
                                    : "Why the conversation ends")))
                    : FunctionSpec.NO_PARAMETERS, FunctionSpec.Kind.TOOL);
            case TRANSFER_CALL -> new FunctionSpec(functionName(tool), description == null
                    ? "Transfer the caller to a person" : description, parameters(config.get("parameters")),
                    FunctionSpec.Kind.TOOL);
            case MCP, NATIVE, INTEGRATION -> null;
        };
    }

    private static Map<String, Object> parameters(Object raw) {
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        List<?> list = JsonTree.asList(raw);
        if (list != null) {
            for (Object item : list) {
                Map<String, Object> p = JsonTree.asMap(item);
                if (p == null || !(p.get("name") instanceof String name)) {
                    continue;
                }
                Map<String, Object> property = new LinkedHashMap<>();
                property.put("type", p.get("type") instanceof String t ? t : "string");
                if (p.get("description") instanceof String d && !d.isBlank()) {
                    property.put("description", d);
                }
                if ("array".equals(property.get("type"))) {
                    property.put("items", Map.of());
                }
                properties.put(name, property);
                if (Boolean.TRUE.equals(p.get("required"))) {
                    required.add(name);
                }
            }
        }
        Map<String, Object> schema = FunctionSpec.objectSchema(properties);
        if (required.isEmpty()) {
            return schema;
        }
        Map<String, Object> withRequired = new LinkedHashMap<>(schema);
        withRequired.put("required", List.copyOf(required));
        return withRequired;
    }
}
