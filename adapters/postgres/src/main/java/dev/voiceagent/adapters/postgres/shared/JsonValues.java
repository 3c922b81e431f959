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

    /**
     * Plain maps and lists all the way down. Walks the wrappers' backing maps and lists directly: a
     * JsonObject's own iteration would wrap every nested map in a new JsonObject first.
     */
    public static Object toJava(Object value) {
        if (value instanceof JsonObject object) {
            return copy(object.getMap());
        }
        if (value instanceof JsonArray array) {
            return copy(array.getList());
        }
        if (value instanceof Map<?, ?> map) {
            return copy(map);
        }
        if (value instanceof List<?> list) {
            return copy(list);
        }
        return value;
    }

    private static Map<String, Object> copy(Map<?, ?> source) {
        Map<String, Object> map = new LinkedHashMap<>(Math.max(4, (int) (source.size() / 0.75f) + 1));
        for (Map.Entry<?, ?> e : source.entrySet()) {
            map.put(String.valueOf(e.getKey()), toJava(e.getValue()));
        }
        return map;
    }

    private static List<Object> copy(List<?> source) {
        List<Object> list = new ArrayList<>(source.size());
        for (Object item : source) {
            list.add(toJava(item));
        }
        return list;
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
