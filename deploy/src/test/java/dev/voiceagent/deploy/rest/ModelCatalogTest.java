package dev.voiceagent.deploy.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceagent.domain.model.ModelCatalog;
import dev.voiceagent.domain.model.ModelField;
import dev.voiceagent.domain.model.ModelProvider;
import dev.voiceagent.domain.model.ModelService;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The model catalog (domain ModelCatalog, what validates a configuration and what the defaults show) is
 * the reference's provider schemas field by field: the same providers per service under the same schema
 * names, and for each field the same type, required-ness, nullability, default, bounds, options, examples
 * and form hints. A provider added to the reference document, or a field changed, fails here. The one
 * provider of this service's own, the simulator language model, is the only addition.
 */
class ModelCatalogTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<ModelService, String[]> UNIONS = Map.of(
            ModelService.LLM, new String[] {"BYOKPipelineAIModelConfiguration", "llm"},
            ModelService.TTS, new String[] {"BYOKPipelineAIModelConfiguration", "tts"},
            ModelService.STT, new String[] {"BYOKPipelineAIModelConfiguration", "stt"},
            ModelService.EMBEDDINGS, new String[] {"BYOKPipelineAIModelConfiguration", "embeddings"},
            ModelService.REALTIME, new String[] {"BYOKRealtimeAIModelConfiguration", "realtime"});

    @Test
    void everyProviderAndFieldIsTheReferencesSchema() throws IOException {
        JsonNode schemas = JSON.readTree(Path.of("..", "src", "spec", "reference-openapi.json").toFile())
                .path("components").path("schemas");
        List<String> differences = new ArrayList<>();
        int fields = 0;
        for (ModelService service : ModelService.values()) {
            String[] union = UNIONS.get(service);
            JsonNode property = schemas.path(union[0]).path("properties").path(union[1]);
            JsonNode mapping = property.has("discriminator") ? property.path("discriminator").path("mapping")
                    : nonNull(property).path("discriminator").path("mapping");
            Set<String> referenceIds = new HashSet<>();
            for (var it = mapping.fields(); it.hasNext(); ) {
                var entry = it.next();
                String id = entry.getKey();
                String name = entry.getValue().asText().substring(entry.getValue().asText().lastIndexOf('/') + 1);
                referenceIds.add(id);
                var ours = ModelCatalog.find(service, id);
                if (ours.isEmpty()) {
                    differences.add(service + " " + id + ": missing from the catalog");
                    continue;
                }
                if (!ours.get().schemaName().equals(name)) {
                    differences.add(service + " " + id + ": schema " + ours.get().schemaName() + " is " + name);
                }
                fields += compare(service + " " + id, schemas.path(name), ours.get(), true, differences);
            }
            for (ModelProvider provider : ModelCatalog.of(service)) {
                if (!referenceIds.contains(provider.id()) && !ModelCatalog.BUILT_IN.contains(provider)) {
                    differences.add(service + " " + provider.id() + ": not in the reference");
                }
            }
        }
        fields += compare("managed", schemas.path("DograhManagedAIModelConfiguration"), ModelCatalog.MANAGED, false,
                differences);
        System.out.printf("model catalog: %d providers, %d fields compared with the reference%n",
                ModelCatalog.all().size(), fields);
        assertThat(ModelCatalog.all()).hasSizeGreaterThan(50);
        assertThat(differences).isEmpty();
    }

    private static int compare(String where, JsonNode schema, ModelProvider provider, boolean tagged,
            List<String> differences) {
        Set<String> required = new HashSet<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        Map<String, JsonNode> properties = new LinkedHashMap<>();
        schema.path("properties").fields().forEachRemaining(e -> properties.put(e.getKey(), e.getValue()));
        if (tagged) {
            properties.remove("provider");
        }
        List<String> ourNames = provider.fields().stream().map(ModelField::name).toList();
        if (!ourNames.equals(new ArrayList<>(properties.keySet()))) {
            differences.add(where + ": fields " + ourNames + " are " + properties.keySet());
        }
        int compared = 0;
        for (ModelField field : provider.fields()) {
            JsonNode p = properties.get(field.name());
            if (p == null) {
                continue;
            }
            compared++;
            String at = where + "." + field.name();
            JsonNode base = nonNull(p);
            boolean nullable = false;
            Set<String> kinds = new HashSet<>();
            for (JsonNode alternative : p.path("anyOf")) {
                if ("null".equals(alternative.path("type").asText())) {
                    nullable = true;
                } else {
                    kinds.add(alternative.path("type").asText());
                }
            }
            if (!p.has("anyOf")) {
                kinds.add(p.path("type").asText());
            }
            ModelField.Type type = kinds.contains("array") && kinds.contains("string") ? ModelField.Type.KEY
                    : kinds.contains("string") ? (base.has("enum") ? ModelField.Type.OPTIONS : ModelField.Type.TEXT)
                    : kinds.contains("number") ? ModelField.Type.NUMBER
                    : kinds.contains("integer") ? ModelField.Type.INTEGER
                    : kinds.contains("boolean") ? ModelField.Type.BOOLEAN : null;
            check(differences, at + " type", field.type(), type);
            check(differences, at + " required", field.required(), required.contains(field.name()));
            check(differences, at + " nullable", field.nullable(), nullable);
            JsonNode defaultValue = p.has("default") ? p.path("default") : base.path("default");
            check(differences, at + " default", field.defaultValue() == null ? null : JSON.valueToTree(
                    field.defaultValue()).asText(), defaultValue.isMissingNode() || defaultValue.isNull() ? null
                    : defaultValue.asText());
            JsonNode lower = base.has("exclusiveMinimum") ? base.path("exclusiveMinimum") : base.path("minimum");
            check(differences, at + " lower bound", field.lower(), lower.isMissingNode() ? null : lower.asDouble());
            check(differences, at + " lower bound exclusive", field.lowerExclusive(), base.has("exclusiveMinimum"));
            check(differences, at + " upper bound", field.upper(), base.has("maximum")
                    ? base.path("maximum").asDouble() : null);
            check(differences, at + " options", field.options(), base.has("enum")
                    ? JSON.convertValue(base.path("enum"), List.class) : null);
            JsonNode examples = p.has("examples") ? p.path("examples") : base.path("examples");
            check(differences, at + " examples", field.examples(), examples.isMissingNode() ? List.of()
                    : JSON.convertValue(examples, List.class).stream().map(String::valueOf).toList());
            check(differences, at + " description", field.description(), p.has("description")
                    ? p.path("description").asText() : base.has("description") ? base.path("description").asText() : null);
            check(differences, at + " secret", field.secret(), Set.of("api_key", "credentials", "aws_access_key",
                    "aws_secret_key").contains(field.name()));
            for (String hint : List.of("allow_custom_input", "model_options", "multiline", "docs_url")) {
                JsonNode value = p.has(hint) ? p.path(hint) : base.path(hint);
                check(differences, at + " " + hint, field.hints().containsKey(hint)
                        ? JSON.valueToTree(field.hints().get(hint)) : null, value.isMissingNode() ? null : value);
            }
        }
        return compared;
    }

    private static JsonNode nonNull(JsonNode p) {
        for (JsonNode alternative : p.path("anyOf")) {
            if (!"null".equals(alternative.path("type").asText()) && !"array".equals(alternative.path("type").asText())) {
                return alternative;
            }
        }
        return p;
    }

    private static void check(List<String> differences, String what, Object ours, Object theirs) {
        if (!Objects.equals(ours, theirs)) {
            differences.add(what + ": " + ours + " is " + theirs);
        }
    }
}
