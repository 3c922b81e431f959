package dev.voiceagent.adapters.postgres.shared;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Converts between the PG client's JSON values and plain Java maps and lists (what the domain holds). */
public final class JsonValues {

    private JsonValues() {
    }

    public static Object toJava(Object value) {
        if (value instanceof JsonObject object) {
            Map<String, Object> map = new LinkedHashMap<>();
            object.forEach(e -> map.put(e.getKey(), toJava(e.getValue())));
            return map;
        }
        if (value instanceof JsonArray array) {
            List<Object> list = new ArrayList<>(array.size());
            array.forEach(v -> list.add(toJava(v)));
            return list;
        }
        if (value instanceof Map<?, ?> || value instanceof List<?>) {
            return toJava(value instanceof Map<?, ?> m ? new JsonObject(castMap(m)) : new JsonArray((List<?>) value));
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> toMap(Object value) {
        return value == null ? null : (Map<String, Object>) toJava(value);
    }

    @SuppressWarnings("unchecked")
    public static List<Object> toList(Object value) {
        return value == null ? null : (List<Object>) toJava(value);
    }

    /** A JSON array of a list of JSON-shaped values. */
    public static JsonArray toJsonArray(List<?> list) {
        return list == null ? null : new JsonArray(new ArrayList<>(list));
    }

    public static JsonObject toJson(Map<String, ?> map) {
        return map == null ? null : new JsonObject(castMap(map));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }
}
