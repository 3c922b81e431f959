package dev.voiceagent.adapters.rest.model;

import dev.voiceagent.domain.model.ModelCatalog;
import dev.voiceagent.domain.model.ModelField;
import dev.voiceagent.domain.model.ModelProvider;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.workflow.WorkflowConfigurationDefaults;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.media.Schema;

/**
 * The v2 model configuration's schemas in the served document, under the reference's names: the body,
 * its managed and byok sections, and one schema per provider told apart by "provider", all generated
 * from the catalog that validates the body.
 */
public final class ModelConfigurationOpenApi {

    private static final String REF = "#/components/schemas/";

    private ModelConfigurationOpenApi() {
    }

    public static void addTo(OpenAPI openAPI) {
        for (ModelProvider provider : ModelCatalog.all()) {
            openAPI.getComponents().addSchema(provider.schemaName(), provider(provider, true));
        }
        openAPI.getComponents().addSchema(ModelCatalog.MANAGED.schemaName(), provider(ModelCatalog.MANAGED, false));
        Schema pipeline = object("BYOKPipelineAIModelConfiguration")
                .addProperty("llm", union(ModelService.LLM)).addProperty("tts", union(ModelService.TTS))
                .addProperty("stt", union(ModelService.STT))
                .addProperty("embeddings", nullable(union(ModelService.EMBEDDINGS)))
                .required(List.of("llm", "tts", "stt"));
        Schema realtime = object("BYOKRealtimeAIModelConfiguration")
                .addProperty("realtime", union(ModelService.REALTIME)).addProperty("llm", union(ModelService.LLM))
                .addProperty("embeddings", nullable(union(ModelService.EMBEDDINGS)))
                .required(List.of("realtime", "llm"));
        Schema byok = object("BYOKAIModelConfiguration")
                .addProperty("mode", string().enumeration(List.of("pipeline", "realtime")).title("Mode"))
                .addProperty("pipeline", nullable(ref("BYOKPipelineAIModelConfiguration")))
                .addProperty("realtime", nullable(ref("BYOKRealtimeAIModelConfiguration")))
                .required(List.of("mode"));
        Schema body = object("OrganizationAIModelConfigurationV2")
                .description("Which models the organization's agents use: the installation's managed models (mode"
                        + " dograh) or its own keys (mode byok). Secrets are sealed at rest and masked on output; a"
                        + " masked value sent back keeps the stored secret")
                .addProperty("version", OASFactory.createSchema().addType(Schema.SchemaType.INTEGER)
                        .constValue(2).defaultValue(2).title("Version"))
                .addProperty("mode", string().enumeration(List.of("dograh", "byok")).title("Mode"))
                .addProperty("dograh", nullable(ref(ModelCatalog.MANAGED.schemaName())))
                .addProperty("byok", nullable(ref("BYOKAIModelConfiguration")))
                .required(List.of("mode"));
        openAPI.getComponents().addSchema("BYOKPipelineAIModelConfiguration", pipeline);
        openAPI.getComponents().addSchema("BYOKRealtimeAIModelConfiguration", realtime);
        openAPI.getComponents().addSchema("BYOKAIModelConfiguration", byok);
        openAPI.getComponents().addSchema("OrganizationAIModelConfigurationV2", body);
        var path = openAPI.getPaths().getPathItem("/api/v1/organizations/model-configurations/v2");
        if (path != null && path.getPUT() != null) {
            path.getPUT().requestBody(OASFactory.createRequestBody().required(true).content(OASFactory.createContent()
                    .addMediaType("application/json", OASFactory.createMediaType()
                            .schema(ref("OrganizationAIModelConfigurationV2")))));
        }
        defaults(openAPI);
    }

    /** The workflow configuration defaults, the chat timeout bounds and the widget texts, typed from their values. */
    private static void defaults(OpenAPI openAPI) {
        Schema configuration = typed("WorkflowConfigurationDefaults", WorkflowConfigurationDefaults.CONFIGURATION);
        configuration.getProperties().get("max_call_duration").exclusiveMinimum(BigDecimal.ZERO)
                .maximum(BigDecimal.valueOf(WorkflowConfigurationDefaults.MAX_CALL_DURATION_LIMIT_SECONDS));
        configuration.getProperties().get("text_chat_inactivity_timeout_seconds")
                .minimum(BigDecimal.valueOf(WorkflowConfigurationDefaults.TEXT_CHAT_INACTIVITY_MIN_SECONDS))
                .maximum(BigDecimal.valueOf(WorkflowConfigurationDefaults.TEXT_CHAT_INACTIVITY_MAX_SECONDS));
        configuration.getProperties().get("external_pbx_field_mappings").maxItems(100).items(object("ExternalPBXFieldMapping")
                .description("One gathered-context value mapped to a field of an external PBX's lead")
                .addProperty("context_path", string().minLength(1).maxLength(255).title("Context Path"))
                .addProperty("destination_field", string().pattern("^[A-Za-z][A-Za-z0-9_]{0,63}$")
                        .title("Destination Field"))
                .required(List.of("context_path", "destination_field")));
        configuration.getProperties().get("external_pbx_lead_headers").maxItems(50)
                .items(string().pattern("^[A-Za-z][A-Za-z0-9_]{0,63}$"));
        openAPI.getComponents().addSchema("WorkflowConfigurationDefaults", configuration);
        openAPI.getComponents().addSchema("TextChatInactivityTimeoutConstraints",
                typed("TextChatInactivityTimeoutConstraints", WorkflowConfigurationDefaults.TEXT_CHAT_INACTIVITY));
        openAPI.getComponents().addSchema("WidgetTexts", typed("WidgetTexts", WorkflowConfigurationDefaults.WIDGET_TEXTS)
                .description("Every visitor-facing string the embed widget can render"));
    }

    private static Schema typed(String title, Map<String, Object> values) {
        Schema schema = object(title);
        values.forEach((name, value) -> schema.addProperty(name, typed(value).title(title(name)).defaultValue(
                value instanceof Map<?, ?> ? null : value)));
        return schema;
    }

    @SuppressWarnings("unchecked")
    private static Schema typed(Object value) {
        return switch (value) {
            case Boolean b -> OASFactory.createSchema().addType(Schema.SchemaType.BOOLEAN);
            case Integer i -> OASFactory.createSchema().addType(Schema.SchemaType.INTEGER);
            case Number n -> OASFactory.createSchema().addType(Schema.SchemaType.NUMBER);
            case List<?> l -> OASFactory.createSchema().addType(Schema.SchemaType.ARRAY)
                    .items(OASFactory.createSchema().addType(Schema.SchemaType.OBJECT));
            case Map<?, ?> m -> typed(null, (Map<String, Object>) m).title(null);
            default -> string();
        };
    }

    private static Schema union(ModelService service) {
        List<Schema> members = new ArrayList<>();
        Map<String, String> mapping = new LinkedHashMap<>();
        for (ModelProvider provider : ModelCatalog.of(service)) {
            members.add(ref(provider.schemaName()));
            mapping.put(provider.id(), REF + provider.schemaName());
        }
        return OASFactory.createSchema().oneOf(members).title(title(service.wireName()))
                .discriminator(OASFactory.createDiscriminator().propertyName("provider").mapping(mapping));
    }

    private static Schema provider(ModelProvider provider, boolean tagged) {
        Schema schema = object(provider.title());
        if (provider.description() != null) {
            schema.description(provider.description());
        }
        List<String> required = new ArrayList<>();
        if (tagged) {
            schema.addProperty("provider", string().constValue(provider.id()).defaultValue(provider.id())
                    .title("Provider"));
        }
        for (ModelField field : provider.fields()) {
            schema.addProperty(field.name(), property(field));
            if (field.required()) {
                required.add(field.name());
            }
        }
        return required.isEmpty() ? schema : schema.required(required);
    }

    private static Schema property(ModelField field) {
        Schema base = switch (field.type()) {
            case KEY -> OASFactory.createSchema().anyOf(List.of(string(), OASFactory.createSchema()
                    .addType(Schema.SchemaType.ARRAY).items(string())));
            case TEXT -> string();
            case OPTIONS -> string().enumeration(new ArrayList<>(field.options()));
            case NUMBER -> OASFactory.createSchema().addType(Schema.SchemaType.NUMBER);
            case INTEGER -> OASFactory.createSchema().addType(Schema.SchemaType.INTEGER);
            case BOOLEAN -> OASFactory.createSchema().addType(Schema.SchemaType.BOOLEAN);
        };
        if (field.lower() != null) {
            if (field.lowerExclusive()) {
                base.exclusiveMinimum(BigDecimal.valueOf(field.lower()));
            } else {
                base.minimum(BigDecimal.valueOf(field.lower()));
            }
        }
        if (field.upper() != null) {
            base.maximum(BigDecimal.valueOf(field.upper()));
        }
        Schema property = field.nullable() ? nullable(base) : base;
        property.title(title(field.name()));
        if (field.defaultValue() != null) {
            property.defaultValue(field.defaultValue());
        }
        if (field.description() != null) {
            property.description(field.description());
        }
        if (!field.examples().isEmpty()) {
            property.examples(new ArrayList<>(field.examples()));
        }
        if (field.secret() && !field.nullable()) {
            property.format("password");
        }
        return property;
    }

    private static Schema object(String title) {
        return OASFactory.createSchema().addType(Schema.SchemaType.OBJECT).title(title);
    }

    private static Schema string() {
        return OASFactory.createSchema().addType(Schema.SchemaType.STRING);
    }

    private static Schema ref(String name) {
        return OASFactory.createSchema().ref(REF + name);
    }

    private static Schema nullable(Schema schema) {
        return OASFactory.createSchema().anyOf(List.of(schema, OASFactory.createSchema().addType(Schema.SchemaType.NULL)));
    }

    static String title(String name) {
        StringBuilder out = new StringBuilder();
        for (String part : name.split("_")) {
            if (!part.isEmpty()) {
                out.append(out.isEmpty() ? "" : " ").append(Character.toUpperCase(part.charAt(0)))
                        .append(part.substring(1));
            }
        }
        return out.toString();
    }
}
