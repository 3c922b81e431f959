package dev.voiceagent.deploy.safety;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The operations of the application's own OpenAPI document, read at test time from the running
 * application: so every operation added later is covered by the suites that walk them.
 */
final class ApiDocument {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> METHODS = Set.of("get", "post", "put", "patch", "delete");

    record Parameter(String name, JsonNode schema, boolean required) {
    }

    /** One operation; {@code bodySchema} is resolved (no $ref at the top) and null when it takes no JSON body. */
    record Operation(String method, String path, List<Parameter> pathParameters, List<Parameter> queryParameters,
            JsonNode bodySchema, String bodyMediaType, boolean authenticated) {

        String key() {
            return method + " " + path;
        }

        @Override
        public String toString() {
            return key();
        }
    }

    private final JsonNode document;
    private final List<Operation> operations;

    private ApiDocument(JsonNode document) {
        this.document = document;
        List<Operation> found = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = document.path("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (Iterator<Map.Entry<String, JsonNode>> ops = path.getValue().fields(); ops.hasNext(); ) {
                Map.Entry<String, JsonNode> op = ops.next();
                if (!METHODS.contains(op.getKey())) {
                    continue;
                }
                List<Parameter> pathParameters = new ArrayList<>();
                List<Parameter> queryParameters = new ArrayList<>();
                boolean authenticated = false;
                for (JsonNode p : op.getValue().path("parameters")) {
                    Parameter parameter = new Parameter(p.path("name").asText(), resolve(p.path("schema")),
                            p.path("required").asBoolean(false));
                    switch (p.path("in").asText()) {
                        case "path" -> pathParameters.add(parameter);
                        case "query" -> queryParameters.add(parameter);
                        default -> // headers: the credentials (an operation that takes them needs them)
                                authenticated |= "X-API-Key".equals(parameter.name());
                    }
                }
                JsonNode content = op.getValue().path("requestBody").path("content");
                String mediaType = content.fieldNames().hasNext() ? content.fieldNames().next() : null;
                JsonNode body = mediaType == null ? null : resolve(content.path(mediaType).path("schema"));
                found.add(new Operation(op.getKey().toUpperCase(Locale.ROOT), path.getKey(),
                        List.copyOf(pathParameters), List.copyOf(queryParameters), body, mediaType, authenticated));
            }
        }
        found.sort(Comparator.comparing(Operation::path).thenComparing(Operation::method));
        this.operations = List.copyOf(found);
    }

    /** The document the application serves at /api/v1/openapi.json. */
    static ApiDocument served() {
        try {
            return new ApiDocument(JSON.readTree(given().get("/api/v1/openapi.json").then().statusCode(200)
                    .extract().asString()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<Operation> operations() {
        return operations;
    }

    /** A schema with its $ref (and a nullable anyOf [X, null]) followed. */
    JsonNode resolve(JsonNode schema) {
        JsonNode s = schema;
        for (int i = 0; i < 20; i++) {
            if (s.has("$ref")) {
                String ref = s.path("$ref").asText();
                s = document.path("components").path("schemas").path(ref.substring(ref.lastIndexOf('/') + 1));
            } else if (s.has("anyOf") || s.has("oneOf")) {
                JsonNode alternatives = s.has("anyOf") ? s.path("anyOf") : s.path("oneOf");
                JsonNode chosen = null;
                for (JsonNode alternative : alternatives) {
                    if (!"null".equals(alternative.path("type").asText())) {
                        chosen = alternative;
                        break;
                    }
                }
                if (chosen == null) {
                    return s;
                }
                s = chosen;
            } else {
                return s;
            }
        }
        return s;
    }

    /** The JSON type a schema declares ("string", "integer", ...; the first non-null one of a list), or "". */
    static String type(JsonNode schema) {
        JsonNode type = schema.path("type");
        if (type.isArray()) {
            for (JsonNode t : type) {
                if (!"null".equals(t.asText())) {
                    return t.asText();
                }
            }
            return "";
        }
        if (type.isMissingNode() && schema.has("properties")) {
            return "object";
        }
        return type.asText("");
    }
}
