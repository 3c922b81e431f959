package dev.voiceagent.adapters.rest.shared;

import dev.voiceagent.adapters.rest.model.ModelConfigurationOpenApi;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import dev.voiceagent.adapters.rest.embed.EmbedCors;
import dev.voiceagent.domain.telephony.Provider;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;

/**
 * Makes the generated document say what the reference's clients expect of every operation: the
 * optional credential headers authorization and X-API-Key (on all but the public operations), a 404
 * and a 422 HTTPValidationError response, and the collection paths with their trailing slash. It runs
 * at build time only: the application serves the finished document and filters nothing at start.
 */
@OpenApiFilter(stages = OpenApiFilter.RunStage.BUILD) // applied once, when the document is generated at build
public class ApiContractFilter implements OASFilter {

    private static final Set<String> PUBLIC_PATHS = PublicPaths.DOCUMENTED;
    /** Paths whose operations take no dashboard credentials (a public agent trigger requires its own X-API-Key). */
    private static final String PUBLIC_PREFIX = PublicPaths.PUBLIC_PREFIX;
    /** Collection routes the reference declares with a trailing slash (a list: Set.of's order changes run to run). */
    private static final List<String> SLASHED = List.of("/api/v1/campaign", "/api/v1/folder");
    private static final String VALIDATION_REF = "#/components/schemas/HTTPValidationError";

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getInfo() == null) { // at build the info of the configuration is not set yet
            openAPI.setInfo(OASFactory.createInfo());
        }
        openAPI.getInfo().title("Voice Agent API").version("1.0.0");
        if (openAPI.getPaths() == null) {
            return;
        }
        for (String slashless : SLASHED) {
            PathItem item = openAPI.getPaths().getPathItem(slashless);
            if (item != null) {
                openAPI.getPaths().removePathItem(slashless);
                openAPI.getPaths().addPathItem(slashless + "/", item);
            }
        }
        EmbedCors.document(openAPI);
        for (Map.Entry<String, PathItem> path : openAPI.getPaths().getPathItems().entrySet()) {
            boolean open = PUBLIC_PATHS.contains(path.getKey()) || path.getKey().startsWith(PUBLIC_PREFIX);
            for (Operation operation : path.getValue().getOperations().values()) {
                if (!open) {
                    addHeader(operation, "authorization", "Authorization");
                    addHeader(operation, "X-API-Key", "X-Api-Key");
                }
                if (operation.getResponses().getAPIResponse("404") == null) {
                    operation.getResponses().addAPIResponse("404", OASFactory.createAPIResponse().description("Not found"));
                }
                if (operation.getResponses().getAPIResponse("422") == null) {
                    operation.getResponses().addAPIResponse("422", OASFactory.createAPIResponse()
                            .description("Validation Error")
                            .content(OASFactory.createContent().addMediaType("application/json",
                                    OASFactory.createMediaType().schema(OASFactory.createSchema().ref(VALIDATION_REF)))));
                }
            }
        }
        providerConfigurations(openAPI);
        ModelConfigurationOpenApi.addTo(openAPI);
        Schema validationError = openAPI.getComponents().getSchemas().get("ValidationError");
        if (validationError != null) {
            validationError.addProperty("loc", OASFactory.createSchema().title("Location")
                    .addType(Schema.SchemaType.ARRAY)
                    .items(OASFactory.createSchema().anyOf(List.of(
                            OASFactory.createSchema().addType(Schema.SchemaType.STRING),
                            OASFactory.createSchema().addType(Schema.SchemaType.INTEGER)))));
            validationError.addProperty("input", OASFactory.createSchema().title("Input"));
        }
    }

    /**
     * The body's config is one provider's fields, told apart by "provider": one schema per provider,
     * generated from the same field table that validates it (required fields, secrets, types).
     */
    private static void providerConfigurations(OpenAPI openAPI) {
        List<Schema> alternatives = new ArrayList<>();
        Map<String, String> mapping = new LinkedHashMap<>();
        for (Provider provider : Provider.values()) {
            String name = provider.displayName().replaceAll("[^A-Za-z]", "") + "ConfigurationRequest";
            Schema schema = OASFactory.createSchema().addType(Schema.SchemaType.OBJECT).title(name)
                    .description(provider.displayName() + " account settings; secrets are sealed at rest and masked on"
                            + " output (a masked value sent back keeps the stored secret)")
                    .addProperty("provider", OASFactory.createSchema().addType(Schema.SchemaType.STRING)
                            .enumeration(List.of(provider.wireName())))
                    .addRequired("provider");
            for (Provider.Field field : provider.fields()) {
                Schema property = OASFactory.createSchema().title(field.label()).description(field.description())
                        .addType(switch (field.type()) {
                            case "boolean" -> Schema.SchemaType.BOOLEAN;
                            case "integer" -> Schema.SchemaType.INTEGER;
                            case "array" -> Schema.SchemaType.ARRAY;
                            case "object" -> Schema.SchemaType.OBJECT;
                            default -> Schema.SchemaType.STRING;
                        });
                if (field.sensitive()) {
                    property.format("password");
                }
                if ("external_pbx".equals(field.name())) {
                    property = externalPbx(field);
                }
                schema.addProperty(field.name(), property);
                if (field.required()) {
                    schema.addRequired(field.name());
                }
            }
            openAPI.getComponents().addSchema(name, schema);
            alternatives.add(OASFactory.createSchema().ref("#/components/schemas/" + name));
            mapping.put(provider.wireName(), "#/components/schemas/" + name);
        }
        for (String request : List.of("TelephonyConfigurationCreateRequest", "TelephonyConfigurationUpdateRequest")) {
            Schema body = openAPI.getComponents().getSchemas().get(request);
            if (body != null && body.getProperties() != null && body.getProperties().containsKey("config")) {
                body.addProperty("config", OASFactory.createSchema().title("Config").oneOf(alternatives)
                        .discriminator(OASFactory.createDiscriminator().propertyName("provider").mapping(mapping)));
            }
        }
    }

    /** An Asterisk configuration's VICIdial: its agent API, its optional non-agent API, its requests' limit. */
    private static Schema externalPbx(Provider.Field field) {
        java.util.function.Function<String, Schema> api = title -> OASFactory.createSchema().title(title)
                .addType(Schema.SchemaType.OBJECT)
                .addProperty("url", OASFactory.createSchema().addType(Schema.SchemaType.STRING).title("Url"))
                .addProperty("username", OASFactory.createSchema().addType(Schema.SchemaType.STRING).title("Username"))
                .addProperty("password", OASFactory.createSchema().addType(Schema.SchemaType.STRING).title("Password")
                        .format("password"))
                .addProperty("source", OASFactory.createSchema().addType(Schema.SchemaType.STRING).title("Source")
                        .defaultValue("voiceagent"));
        return OASFactory.createSchema().title(field.label()).description(field.description())
                .addType(Schema.SchemaType.OBJECT)
                .addProperty("type", OASFactory.createSchema().addType(Schema.SchemaType.STRING)
                        .enumeration(List.of("vicidial")))
                .addProperty("agent_api", api.apply("VicidialAgentAPIConfiguration").addRequired("url")
                        .addRequired("username").addRequired("password"))
                .addProperty("non_agent_api", api.apply("VicidialNonAgentAPIConfiguration"))
                .addProperty("timeout_seconds", OASFactory.createSchema().addType(Schema.SchemaType.INTEGER)
                        .minimum(java.math.BigDecimal.ONE).maximum(java.math.BigDecimal.valueOf(30)).defaultValue(8))
                .addRequired("agent_api");
    }

    private static void addHeader(Operation operation, String name, String title) {
        if (operation.getParameters() != null && operation.getParameters().stream()
                .anyMatch(p -> p.getIn() == Parameter.In.HEADER && name.equalsIgnoreCase(p.getName()))) {
            return;
        }
        operation.addParameter(OASFactory.createParameter().name(name).in(Parameter.In.HEADER).required(false)
                .schema(OASFactory.createSchema().title(title).anyOf(List.of(
                        OASFactory.createSchema().addType(Schema.SchemaType.STRING),
                        OASFactory.createSchema().addType(Schema.SchemaType.NULL)))));
    }
}
