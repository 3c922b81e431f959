package dev.voiceagent.adapters.postgres.shared;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON columns read as text ({@code column::text}) and parsed with Jackson's streaming parser: the
 * PG client's own decoding of {@code json} builds a tree through Jackson databind and wraps it in
 * JsonObjects, which the campaign list paid for on 600 values per request.
 */
public final class JsonColumns {

    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    private JsonColumns() {
    }

    /** A parser positioned before the first token; the caller closes it. */
    public static JsonParser parser(String text) {
        try {
            return FACTORY.createParser(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An object as a plain map (insertion order), or null for SQL NULL and a JSON null. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> toMap(String text) {
        Object value = toJava(text);
        return value == null ? null : (Map<String, Object>) value;
    }

    /**
     * Plain maps, lists, strings, booleans and numbers (Integer, Long or BigInteger for integers,
     * Double for fractions), as the PG client's decoding gave them.
     */
    public static Object toJava(String text) {
        if (text == null) {
            return null;
        }
        try (JsonParser p = parser(text)) {
            return value(p, p.nextToken());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The value starting at {@code token} (the parser's current token). */
    public static Object value(JsonParser p, JsonToken token) throws IOException {
        switch (token) {
            case START_OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    map.put(name, value(p, p.nextToken()));
                }
                return map;
            }
            case START_ARRAY -> {
                List<Object> list = new ArrayList<>();
                JsonToken next;
                while ((next = p.nextToken()) != JsonToken.END_ARRAY) {
                    list.add(value(p, next));
                }
                return list;
            }
            case VALUE_STRING -> {
                return p.getText();
            }
            case VALUE_NUMBER_INT -> {
                return p.getNumberValue();
            }
            case VALUE_NUMBER_FLOAT -> {
                return p.getDoubleValue();
            }
            case VALUE_TRUE -> {
                return Boolean.TRUE;
            }
            case VALUE_FALSE -> {
                return Boolean.FALSE;
            }
            case VALUE_NULL -> {
                return null;
            }
            default -> throw new IOException("unexpected JSON token " + token);
        }
    }
}
