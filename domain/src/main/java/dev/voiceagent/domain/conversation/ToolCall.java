package dev.voiceagent.domain.conversation;

import dev.voiceagent.domain.workflow.JsonTree;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** A function the model asked to call: the id it gave the call, the function's name and its arguments. */
public record ToolCall(String id, String name, Map<String, Object> arguments) {

    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        arguments = arguments == null ? Map.of() : JsonTree.asMap(JsonTree.freeze(arguments));
    }

    Map<String, Object> toMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", id);
        out.put("name", name);
        out.put("arguments", arguments);
        return out;
    }

    static ToolCall fromMap(Map<String, Object> map) {
        return new ToolCall(String.valueOf(map.get("id")), String.valueOf(map.get("name")),
                JsonTree.asMap(map.get("arguments")));
    }
}
