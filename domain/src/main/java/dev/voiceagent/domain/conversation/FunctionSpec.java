package dev.voiceagent.domain.conversation;

import dev.voiceagent.domain.workflow.JsonTree;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A function offered to the model: its name, what it is for and its parameters (a JSON schema). The kind
 * says what the engine does when it is called: move along an edge, record extracted values, or run a tool.
 */
public record FunctionSpec(String name, String description, Map<String, Object> parameters, Kind kind) {

    public enum Kind { TRANSITION, EXTRACTION, TOOL }

    /** An object schema without properties: a function that takes nothing. */
    public static final Map<String, Object> NO_PARAMETERS = objectSchema(Map.of());

    /** {"type": "object", "properties": ...}, in that order (what a provider is sent is always the same text). */
    public static Map<String, Object> objectSchema(Map<String, Object> properties) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        return JsonTree.asMap(JsonTree.freeze(schema));
    }

    public FunctionSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        parameters = parameters == null ? NO_PARAMETERS : JsonTree.asMap(JsonTree.freeze(parameters));
    }
}
