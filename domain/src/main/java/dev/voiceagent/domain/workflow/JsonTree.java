package dev.voiceagent.domain.workflow;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Helpers for JSON-shaped values held as plain Java: maps with string keys, lists, strings,
 * numbers, booleans and null. Deep copies are unmodifiable, so a definition cannot change under
 * the code that validated it.
 */
public final class JsonTree {

    private JsonTree() {
    }

    @SuppressWarnings("unchecked")
    public static Object freeze(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(String.valueOf(k), freeze(v)));
            return Collections.unmodifiableMap(copy);
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(v -> copy.add(freeze(v)));
            return Collections.unmodifiableList(copy);
        }
        return value;
    }

    /** A mutable deep copy, for building a changed tree. */
    public static Object thaw(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(String.valueOf(k), thaw(v)));
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(v -> copy.add(thaw(v)));
            return copy;
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> asMap(Object value) {
        return value instanceof Map<?, ?> ? (Map<String, Object>) value : null;
    }

    public static List<?> asList(Object value) {
        return value instanceof List<?> list ? list : null;
    }

    public static String asString(Object value) {
        return value instanceof String s ? s : null;
    }

    public static boolean isBlank(Object value) {
        return value == null || (value instanceof String s && s.isBlank());
    }
}
