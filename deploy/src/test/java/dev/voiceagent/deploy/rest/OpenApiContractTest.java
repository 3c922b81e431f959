package dev.voiceagent.deploy.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Reads the tables of spec section 2 (src/spec/voice-agent-api.md, a copy of the contract) and
 * checks the served OpenAPI document against them field by field: names, required lists, types,
 * nullability and defaults; then the campaign-list operation's headers and responses.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class OpenApiContractTest {

    private static final Map<String, String> SECTIONS = Map.of(
            "2.1", "CampaignsResponse", "2.2", "CampaignResponse", "2.3", "RetryConfigResponse",
            "2.4", "ScheduleConfigResponse", "2.5", "TimeSlotResponse", "2.6", "CircuitBreakerConfigResponse",
            "2.7", "CampaignLogEntryResponse");

    record Field(String name, String type, Boolean required, String defaultValue) {
    }

    private static Map<String, List<Field>> spec;
    private static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void readSpec() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("..", "src", "spec", "voice-agent-api.md"));
        spec = new LinkedHashMap<>();
        String current = null;
        boolean allRequired = false;
        boolean noneRequired = false;
        List<String> header = null;
        Pattern heading = Pattern.compile("^### (2\\.\\d) (.*)$");
        for (String line : lines) {
            Matcher m = heading.matcher(line);
            if (m.matches()) {
                current = SECTIONS.get(m.group(1));
                allRequired = m.group(2).contains("all fields required");
                noneRequired = m.group(2).contains("no field required");
                header = null;
                if (current != null) {
                    spec.put(current, new ArrayList<>());
                }
                continue;
            }
            if (current == null || !line.startsWith("|") || line.startsWith("|---")) {
                continue;
            }
            List<String> cells = new ArrayList<>();
            for (String cell : line.substring(1, line.length() - 1).split("\\|", -1)) {
                cells.add(cell.strip());
            }
            if (header == null) {
                header = cells;
                continue;
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.size(); i++) {
                row.put(header.get(i), cells.get(i));
            }
            Boolean required = row.containsKey("Required") ? "yes".equals(row.get("Required"))
                    : allRequired ? Boolean.TRUE : noneRequired ? Boolean.FALSE : null;
            String def = row.getOrDefault("Default", "");
            spec.get(current).add(new Field(row.get("Field"), row.get("Type"), required, def.isEmpty() ? null : def));
        }
        assertThat(spec).hasSize(7);
        assertThat(spec.get("CampaignResponse")).hasSize(24);
    }

    private static JsonNode served() throws IOException {
        return JSON.readTree(given().get("/api/v1/openapi.json").then().statusCode(200).extract().asString());
    }

    @Test
    void everySchemaOfSection2MatchesFieldByField() throws IOException {
        JsonNode schemas = served().path("components").path("schemas");
        for (Map.Entry<String, List<Field>> schema : spec.entrySet()) {
            JsonNode node = schemas.path(schema.getKey());
            assertThat(node.isObject()).as("schema %s is served under its spec name", schema.getKey()).isTrue();
            JsonNode properties = node.path("properties");
            Set<String> required = new HashSet<>();
            node.path("required").forEach(r -> required.add(r.asText()));
            Set<String> names = new HashSet<>();
            for (Field field : schema.getValue()) {
                names.add(field.name());
                JsonNode property = properties.path(field.name());
                String where = schema.getKey() + "." + field.name();
                assertThat(property.isMissingNode()).as("%s present", where).isFalse();
                assertThat(required.contains(field.name())).as("%s required", where).isEqualTo(field.required());
                assertThat(describe(property)).as("%s type", where).isEqualTo(normalize(field.type()));
                if (field.defaultValue() != null) {
                    assertThat(property.path("default").asText()).as("%s default", where).isEqualTo(field.defaultValue());
                }
            }
            List<String> served = new ArrayList<>();
            properties.fieldNames().forEachRemaining(served::add);
            assertThat(served).as("%s has no fields beyond the spec", schema.getKey()).containsExactlyInAnyOrderElementsOf(names);
        }
    }

    @Test
    void validationErrorSchemasMatchSection28() throws IOException {
        JsonNode schemas = served().path("components").path("schemas");
        JsonNode http = schemas.path("HTTPValidationError");
        assertThat(http.path("required").isMissingNode() || http.path("required").isEmpty()).isTrue();
        assertThat(describe(http.path("properties").path("detail"))).isEqualTo("array of ValidationError");
        JsonNode error = schemas.path("ValidationError");
        List<String> required = new ArrayList<>();
        error.path("required").forEach(r -> required.add(r.asText()));
        assertThat(required).containsExactlyInAnyOrder("loc", "msg", "type");
        JsonNode loc = error.path("properties").path("loc");
        assertThat(loc.path("type").asText()).isEqualTo("array");
        List<String> itemTypes = new ArrayList<>();
        loc.path("items").path("anyOf").forEach(t -> itemTypes.add(t.path("type").asText()));
        assertThat(itemTypes).containsExactlyInAnyOrder("string", "integer");
        assertThat(describe(error.path("properties").path("msg"))).isEqualTo("string");
        assertThat(describe(error.path("properties").path("type"))).isEqualTo("string");
        assertThat(error.path("properties").has("input")).isTrue();
        assertThat(describe(error.path("properties").path("ctx"))).isEqualTo("object");
    }

    @Test
    void theCampaignListOperationDeclaresHeadersAndResponses() throws IOException {
        JsonNode get = served().path("paths").path("/api/v1/campaign/").path("get");
        assertThat(get.isObject()).isTrue();
        Map<String, JsonNode> headers = new LinkedHashMap<>();
        get.path("parameters").forEach(p -> {
            assertThat(p.path("in").asText()).isEqualTo("header");
            headers.put(p.path("name").asText(), p);
        });
        assertThat(headers.keySet()).containsExactlyInAnyOrder("authorization", "X-API-Key");
        headers.values().forEach(h -> {
            assertThat(h.path("required").asBoolean(false)).isFalse();
            assertThat(describe(h.path("schema"))).isEqualTo("string or null");
        });
        assertThat(get.path("requestBody").isMissingNode()).isTrue();
        JsonNode responses = get.path("responses");
        List<String> codes = new ArrayList<>();
        responses.fieldNames().forEachRemaining(codes::add);
        assertThat(codes).containsExactlyInAnyOrder("200", "404", "422");
        assertThat(responses.path("200").path("content").path("application/json").path("schema").path("$ref").asText())
                .isEqualTo("#/components/schemas/CampaignsResponse");
        assertThat(responses.path("422").path("content").path("application/json").path("schema").path("$ref").asText())
                .isEqualTo("#/components/schemas/HTTPValidationError");
    }

    @Test
    void theDocumentIsAlsoServedAtTheQuarkusPaths() {
        given().get("/q/openapi?format=json").then().statusCode(200);
        given().get("/q/swagger-ui/").then().statusCode(200);
    }

    /** The spec's wording of a type, e.g. "integer or null", "array of TimeSlotResponse". */
    private static String normalize(String specType) {
        return specType.replace("string, date-time, or null", "date-time or null")
                .replace("string, date-time", "date-time")
                .replace("object with arbitrary properties, or null", "object or null");
    }

    /** The same wording derived from an OpenAPI 3.1 property schema. */
    private static String describe(JsonNode p) {
        List<String> alternatives = new ArrayList<>();
        if (p.has("anyOf")) {
            p.path("anyOf").forEach(alt -> alternatives.add(single(alt)));
        } else if (p.path("type").isArray()) {
            p.path("type").forEach(t -> alternatives.add(
                    "null".equals(t.asText()) ? "null" : single(((com.fasterxml.jackson.databind.node.ObjectNode) p.deepCopy())
                            .put("type", t.asText()))));
        } else {
            alternatives.add(single(p));
        }
        alternatives.sort((a, b) -> "null".equals(a) ? 1 : "null".equals(b) ? -1 : 0);
        return String.join(" or ", alternatives);
    }

    private static String single(JsonNode p) {
        if (p.has("$ref")) {
            String ref = p.path("$ref").asText();
            return ref.substring(ref.lastIndexOf('/') + 1);
        }
        String type = p.path("type").asText();
        if ("string".equals(type) && "date-time".equals(p.path("format").asText())) {
            return "date-time";
        }
        if ("array".equals(type)) {
            return "array of " + single(p.path("items"));
        }
        return type;
    }
}
