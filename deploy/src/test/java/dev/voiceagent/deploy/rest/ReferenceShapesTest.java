package dev.voiceagent.deploy.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Existing clients of the reference system must work against this service: for every operation this
 * service serves that the reference's OpenAPI document (src/spec/reference-openapi.json, a copy of
 * the one the reference publishes) also has, every property name of the reference's request body and
 * of its 200 response, nested objects included, is present in ours. A deliberate difference is in
 * {@link #DIFFERENCES} with its reason; one that is no longer a difference fails the test too, so the
 * list stays short and true.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ReferenceShapesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int DEPTH = 4;

    /** Pattern of "METHOD path request|response property.path" -> why this service does not have it. */
    private static final Map<String, String> DIFFERENCES = Map.of(
            "GET /api/v1/node-types(/\\{name\\})? response (node_types\\.)?(properties\\.)+renderer_options",
            "the reference UI's hints for its own custom widgets; no field of this registry uses one",
            "PUT /api/v1/workflow/\\{workflow_id\\} request workflow_configurations\\..*",
            "settings of the voice runtime (turn taking, idle and duration limits, ambient noise) that this control"
                    + " plane stores and returns as given without interpreting them: declared as a free-form object"
                    + " rather than promising a validation it does not do");

    /** Operations whose 200 is not JSON here (a CSV attachment), though the reference's document says JSON. */
    private static final Set<String> NOT_JSON = Set.of("GET /api/v1/workflow/{workflow_id}/report",
            "GET /api/v1/campaign/{campaign_id}/report");

    @Test
    void everyPropertyOfTheReferencesBodiesAndResponsesIsServed() throws IOException {
        JsonNode reference = JSON.readTree(Path.of("..", "src", "spec", "reference-openapi.json").toFile());
        JsonNode ours = JSON.readTree(given().get("/api/v1/openapi.json").then().statusCode(200).extract().asString());
        List<String> missing = new ArrayList<>();
        int compared = 0;
        for (var paths = ours.path("paths").fields(); paths.hasNext(); ) {
            var path = paths.next();
            for (var ops = path.getValue().fields(); ops.hasNext(); ) {
                var op = ops.next();
                JsonNode theirs = reference.path("paths").path(path.getKey()).path(op.getKey());
                if (theirs.isMissingNode()) {
                    continue;
                }
                compared++;
                String key = op.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey();
                compare(key + " request", schema(reference, theirs.path("requestBody")),
                        schema(ours, op.getValue().path("requestBody")), reference, ours, missing);
                if (!NOT_JSON.contains(key)) {
                    compare(key + " response", schema(reference, theirs.path("responses").path("200")),
                            schema(ours, op.getValue().path("responses").path("200")), reference, ours, missing);
                }
            }
        }
        List<String> unexplained = missing.stream().filter(m -> DIFFERENCES.keySet().stream().noneMatch(m::matches))
                .toList();
        List<String> stale = DIFFERENCES.keySet().stream().filter(d -> missing.stream().noneMatch(m -> m.matches(d)))
                .toList();
        System.out.printf("reference shapes: %d operations compared, %d deliberate differences%n", compared,
                DIFFERENCES.size());
        assertThat(compared).isGreaterThan(70);
        assertThat(unexplained).as("properties of the reference's shapes missing here").isEmpty();
        assertThat(stale).as("allow-list entries that are no longer differences").isEmpty();
    }

    private static JsonNode schema(JsonNode document, JsonNode bodyOrResponse) {
        JsonNode content = bodyOrResponse.path("content");
        JsonNode json = content.path("application/json");
        return json.isMissingNode() ? null : json.path("schema");
    }

    private static void compare(String where, JsonNode theirs, JsonNode ours, JsonNode reference, JsonNode document,
            List<String> missing) {
        if (theirs == null) {
            return;
        }
        Map<String, Object> expected = properties(reference, theirs, 0);
        if (expected.isEmpty()) {
            return;
        }
        if (ours == null) {
            missing.add(where + " (no JSON schema here)");
            return;
        }
        collectMissing(where + " ", expected, properties(document, ours, 0), "", missing);
    }

    @SuppressWarnings("unchecked")
    private static void collectMissing(String where, Map<String, Object> expected, Map<String, Object> actual,
            String prefix, List<String> missing) {
        for (Map.Entry<String, Object> e : expected.entrySet()) {
            if (!actual.containsKey(e.getKey())) {
                missing.add(where + prefix + e.getKey());
            } else {
                collectMissing(where, (Map<String, Object>) e.getValue(), (Map<String, Object>) actual.get(e.getKey()),
                        prefix + e.getKey() + ".", missing);
            }
        }
    }

    /** Property name -> its own properties (objects, array items, every alternative of anyOf/oneOf). */
    private static Map<String, Object> properties(JsonNode document, JsonNode schema, int depth) {
        Map<String, Object> out = new LinkedHashMap<>();
        JsonNode s = resolve(document, schema);
        for (String combinator : List.of("anyOf", "oneOf", "allOf")) {
            for (JsonNode alternative : s.path(combinator)) {
                if (!"null".equals(alternative.path("type").asText())) {
                    out.putAll(properties(document, alternative, depth));
                }
            }
        }
        boolean array = "array".equals(s.path("type").asText())
                || s.path("type").isArray() && s.path("type").toString().contains("\"array\"");
        if (array && s.has("items")) {
            return properties(document, s.path("items"), depth);
        }
        for (var it = s.path("properties").fields(); it.hasNext(); ) {
            var property = it.next();
            out.put(property.getKey(), depth < DEPTH ? properties(document, property.getValue(), depth + 1) : Map.of());
        }
        return out;
    }

    private static JsonNode resolve(JsonNode document, JsonNode schema) {
        JsonNode s = schema;
        while (s.has("$ref")) {
            String ref = s.path("$ref").asText();
            s = document.path("components").path("schemas").path(ref.substring(ref.lastIndexOf('/') + 1));
        }
        return s;
    }
}
