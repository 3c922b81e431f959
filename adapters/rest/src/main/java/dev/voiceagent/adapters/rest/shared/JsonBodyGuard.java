package dev.voiceagent.adapters.rest.shared;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One rule at the edge for every JSON request body, whatever it is bound to (a record, a map, a
 * definition stored as jsonb): no NUL character in any text or key (PostgreSQL refuses it in text
 * and jsonb, so it would otherwise surface as a failed write), and no nesting deeper than
 * {@link #MAX_DEPTH}. Either is a 422 whose loc names the offending input; nothing is stripped
 * silently. Malformed JSON is left to the reader, which reports it as it always did.
 */
@Provider
@Priority(Priorities.ENTITY_CODER)
public class JsonBodyGuard implements ReaderInterceptor {

    /** Deep enough for any definition or template this API takes; far below the parser's own limit. */
    public static final int MAX_DEPTH = 64;
    private static final int MAX_LOC = 16;
    private static final byte[] ESCAPED_NUL = "\\u0000".getBytes(StandardCharsets.US_ASCII);
    private static final JsonFactory FACTORY = new JsonFactory();

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        MediaType type = context.getMediaType();
        if (type == null || !("json".equals(type.getSubtype()) || type.getSubtype().endsWith("+json"))) {
            return context.proceed();
        }
        byte[] body = context.getInputStream().readAllBytes();
        ValidationError problem = check(body);
        if (problem != null) {
            throw new RequestValidationException(problem);
        }
        context.setInputStream(new ByteArrayInputStream(body));
        return context.proceed();
    }

    /** The first NUL or too-deep value in a JSON document, or null (also for malformed JSON). */
    static ValidationError check(byte[] body) {
        boolean mayHoldNul = indexOf(body, ESCAPED_NUL) >= 0;
        try (JsonParser parser = FACTORY.createParser(body)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                switch (token) {
                    case START_OBJECT, START_ARRAY -> {
                        if (parser.getParsingContext().getNestingDepth() > MAX_DEPTH) {
                            return ValidationError.of(deepLocation(parser.getParsingContext().getParent()),
                                    "Input nests deeper than " + MAX_DEPTH + " levels", "json_too_deep", null);
                        }
                    }
                    case FIELD_NAME -> {
                        if (mayHoldNul && parser.currentName().indexOf('\0') >= 0) {
                            return nul(location(parser.getParsingContext()));
                        }
                    }
                    case VALUE_STRING -> {
                        if (mayHoldNul && parser.getText().indexOf('\0') >= 0) {
                            return nul(location(parser.getParsingContext()));
                        }
                    }
                    default -> {
                        // numbers, booleans, nulls, ends of containers: nothing to check
                    }
                }
            }
        } catch (JsonProcessingException malformed) {
            return null; // the JSON reader reports it (422 at ["body"])
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return null;
    }

    public static ValidationError nul(List<Object> loc) {
        return ValidationError.of(loc, "Text must not contain the NUL character (\\u0000)", "string_nul_character", null);
    }

    /** ["body", field or index, ...] of the current value (or key). */
    private static List<Object> location(JsonStreamContext context) {
        List<Object> path = new ArrayList<>();
        for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inObject()) {
                path.addFirst(c.getCurrentName() == null ? "" : c.getCurrentName());
            } else if (c.inArray()) {
                path.addFirst(Math.max(0, c.getCurrentIndex()));
            }
        }
        path.addFirst("body");
        return path;
    }

    /** The value that nests too deeply: its path down to the last field name, at most {@link #MAX_LOC} long. */
    private static List<Object> deepLocation(JsonStreamContext container) {
        List<Object> path = location(container);
        int lastName = 0;
        for (int i = 0; i < path.size(); i++) {
            if (path.get(i) instanceof String) {
                lastName = i;
            }
        }
        return List.copyOf(path.subList(0, Math.min(lastName + 1, MAX_LOC)));
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
