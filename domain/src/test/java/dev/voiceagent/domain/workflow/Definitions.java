package dev.voiceagent.domain.workflow;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Builds definitions for tests: a valid start -> agent -> end graph, then mutations of it. */
final class Definitions {

    private Definitions() {
    }

    static Map<String, Object> node(String id, String type, Map<String, Object> data) {
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("id", id);
        node.put("type", type);
        node.put("position", new LinkedHashMap<>(Map.of("x", 0, "y", 0)));
        node.put("data", new LinkedHashMap<>(data));
        return node;
    }

    static Map<String, Object> edge(String id, String source, String target, String label) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("label", label);
        data.put("condition", "when " + label);
        Map<String, Object> edge = new LinkedHashMap<>();
        edge.put("id", id);
        edge.put("source", source);
        edge.put("target", target);
        edge.put("data", data);
        return edge;
    }

    static Map<String, Object> valid() {
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("nodes", new ArrayList<>(List.of(
                node("start", "startCall", Map.of("name", "Start", "prompt", "Greet {{first_name}}",
                        "greeting", "Hello {{first_name}} from {{company}}")),
                node("agent", "agentNode", Map.of("name", "Qualify", "prompt", "Ask about {{product}}")),
                node("end", "endCall", Map.of("name", "End", "prompt", "Say goodbye")))));
        definition.put("edges", new ArrayList<>(List.of(
                edge("e1", "start", "agent", "Interested"),
                edge("e2", "agent", "end", "Done"))));
        definition.put("viewport", new LinkedHashMap<>(Map.of("x", 10, "y", 20, "zoom", 1.5)));
        return definition;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> valid(Consumer<Map<String, Object>> change) {
        Map<String, Object> definition = valid();
        change.accept(definition);
        return definition;
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> nodes(Map<String, Object> definition) {
        return (List<Map<String, Object>>) definition.get("nodes");
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> edges(Map<String, Object> definition) {
        return (List<Map<String, Object>>) definition.get("edges");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> data(Map<String, Object> element) {
        return (Map<String, Object>) element.get("data");
    }
}
