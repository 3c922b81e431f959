package dev.voiceagent.domain.workflow;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * An agent's definition: a React-Flow style graph {"nodes": [...], "edges": [...]} held as an
 * immutable JSON tree, so keys this service does not know (the editor's viewport, node positions,
 * future fields) survive a round trip unchanged.
 */
public final class WorkflowDefinition {

    /** A node as the validator sees it; index is its position in "nodes". */
    public record Node(int index, String id, String type, Map<String, Object> data) {
    }

    /** An edge as the validator sees it; index is its position in "edges". */
    public record Edge(int index, String id, String source, String target, Map<String, Object> data) {

        public String label() {
            return data == null ? null : JsonTree.asString(data.get("label"));
        }
    }

    private final Map<String, Object> tree;

    private WorkflowDefinition(Map<String, Object> tree) {
        this.tree = tree;
    }

    public static WorkflowDefinition of(Map<String, ?> raw) {
        if (raw == null) {
            throw new DomainRuleViolation("workflow_definition must be an object");
        }
        return new WorkflowDefinition(JsonTree.asMap(JsonTree.freeze(raw)));
    }

    public static WorkflowDefinition empty() {
        return of(Map.of("nodes", List.of(), "edges", List.of()));
    }

    public Map<String, Object> tree() {
        return tree;
    }

    public List<Node> nodes() {
        List<Node> nodes = new ArrayList<>();
        List<?> raw = JsonTree.asList(tree.get("nodes"));
        if (raw != null) {
            for (int i = 0; i < raw.size(); i++) {
                Map<String, Object> node = JsonTree.asMap(raw.get(i));
                if (node != null) {
                    nodes.add(new Node(i, idOf(node.get("id")), JsonTree.asString(node.get("type")),
                            JsonTree.asMap(node.get("data"))));
                }
            }
        }
        return nodes;
    }

    public List<Edge> edges() {
        List<Edge> edges = new ArrayList<>();
        List<?> raw = JsonTree.asList(tree.get("edges"));
        if (raw != null) {
            for (int i = 0; i < raw.size(); i++) {
                Map<String, Object> edge = JsonTree.asMap(raw.get(i));
                if (edge != null) {
                    edges.add(new Edge(i, idOf(edge.get("id")), idOf(edge.get("source")), idOf(edge.get("target")),
                            JsonTree.asMap(edge.get("data"))));
                }
            }
        }
        return edges;
    }

    private static String idOf(Object value) {
        return value instanceof String || value instanceof Number ? String.valueOf(value) : null;
    }

    /** The trigger paths of this definition's trigger nodes (blank ones left out). */
    public List<String> triggerPaths() {
        return nodes().stream().filter(n -> NodeTypes.TRIGGER.equals(n.type()) && n.data() != null)
                .map(n -> JsonTree.asString(n.data().get("trigger_path")))
                .filter(p -> p != null && !p.isBlank()).toList();
    }

    /**
     * A copy whose trigger nodes' trigger_path is replaced by {@code change} applied to the current
     * value (null when none): mints paths for empty triggers, or gives a duplicate new ones.
     */
    public WorkflowDefinition withTriggerPaths(UnaryOperator<String> change) {
        @SuppressWarnings("unchecked")
        Map<String, Object> copy = (Map<String, Object>) JsonTree.thaw(tree);
        List<?> nodes = JsonTree.asList(copy.get("nodes"));
        if (nodes != null) {
            for (Object o : nodes) {
                Map<String, Object> node = JsonTree.asMap(o);
                if (node != null && NodeTypes.TRIGGER.equals(node.get("type"))) {
                    Map<String, Object> data = JsonTree.asMap(node.get("data"));
                    if (data == null) {
                        data = new LinkedHashMap<>();
                        node.put("data", data);
                    }
                    Object current = data.get("trigger_path");
                    data.put("trigger_path", change.apply(current instanceof String s && !s.isBlank() ? s : null));
                }
            }
        }
        return of(copy);
    }

    /** An edge's label as an LLM tool name: lower-cased, every character outside [a-z0-9] replaced by _. */
    public static String transitionToolName(String label) {
        StringBuilder out = new StringBuilder(label.length());
        for (char c : label.toLowerCase(Locale.ROOT).toCharArray()) {
            out.append((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c : '_');
        }
        return out.toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof WorkflowDefinition d && d.tree.equals(tree);
    }

    @Override
    public int hashCode() {
        return tree.hashCode();
    }

    @Override
    public String toString() {
        return "WorkflowDefinition" + tree;
    }
}
