package dev.voiceagent.adapters.rest.model;

import dev.voiceagent.domain.model.ModelCatalog;
import dev.voiceagent.domain.model.ModelField;
import dev.voiceagent.domain.model.ModelProvider;
import dev.voiceagent.domain.model.ModelService;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Each provider's settings as a JSON schema (what the configuration forms are drawn from), from the catalog. */
final class ModelSchemas {

    private ModelSchemas() {
    }

    /** provider -> JSON schema, for one service; the managed provider left out when asked. */
    static Map<String, Object> of(ModelService service, boolean withManaged) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (ModelProvider provider : ModelCatalog.of(service)) {
            if (withManaged || !"dograh".equals(provider.id())) {
                out.put(provider.id(), schema(provider));
            }
        }
        return out;
    }

    static Map<String, Object> schema(ModelProvider provider) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("provider", Map.of("const", provider.id(), "default", provider.id(), "title", "Provider",
                "type", "string"));
        List<String> required = new ArrayList<>();
        for (ModelField field : provider.fields()) {
            properties.put(field.name(), property(field));
            if (field.required()) {
                required.add(field.name());
            }
        }
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("title", provider.title()); // what the dashboard shows: "ElevenLabs", not the schema's name
        if (provider.description() != null) {
            schema.put("description", provider.description());
        }
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("required", required);
        return schema;
    }

    private static Map<String, Object> property(ModelField field) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("title", ModelConfigurationOpenApi.title(field.name()));
        Map<String, Object> base = new LinkedHashMap<>();
        switch (field.type()) {
            case KEY -> {
                base.put("anyOf", List.of(Map.of("type", "string"), Map.of("type", "array", "items",
                        Map.of("type", "string"))));
            }
            case TEXT -> base.put("type", "string");
            case OPTIONS -> {
                base.put("type", "string");
                base.put("enum", field.options());
            }
            case NUMBER -> base.put("type", "number");
            case INTEGER -> base.put("type", "integer");
            case BOOLEAN -> base.put("type", "boolean");
        }
        if (field.lower() != null) {
            base.put(field.lowerExclusive() ? "exclusiveMinimum" : "minimum", field.lower());
        }
        if (field.upper() != null) {
            base.put("maximum", field.upper());
        }
        if (field.nullable()) {
            p.put("anyOf", List.of(base, Map.of("type", "null")));
        } else {
            p.putAll(base);
        }
        if (field.defaultValue() != null) {
            p.put("default", field.defaultValue());
        }
        if (field.description() != null) {
            p.put("description", field.description());
        }
        if (!field.examples().isEmpty()) {
            p.put("examples", field.examples());
        }
        p.putAll(field.hints());
        if (field.secret()) {
            p.put("format", "password");
        }
        return p;
    }
}
