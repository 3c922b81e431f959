package dev.voiceagent.adapters.rest.model;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.model.GetModelConfigurationUseCase;
import dev.voiceagent.application.model.MigrateModelConfigurationUseCase;
import dev.voiceagent.application.model.ModelConfigurationView;
import dev.voiceagent.application.model.PreviewModelMigrationUseCase;
import dev.voiceagent.application.model.SaveModelConfigurationUseCase;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.workflow.WorkflowConfigurationDefaults;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.Uni;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;

/** The organization's model configuration (v2): which language, speech and embedding models its agents use. */
@Path("/api/v1/organizations/model-configurations/v2")
public class ModelConfigurationResource {

    @Schema(name = "OrganizationAIModelConfigurationResponse")
    public record OrganizationAIModelConfigurationResponse(
            @Schema(required = true, nullable = true, description = "The organization's v2 configuration, secrets"
                    + " masked; null when it has none") Map<String, Object> configuration,
            @Schema(required = true, description = "What each service really uses, secrets masked")
            Map<String, Object> effectiveConfiguration,
            @Schema(required = true, enumeration = {"organization_v2", "legacy_user_v1", "empty"}) String source) {

        static OrganizationAIModelConfigurationResponse of(ModelConfigurationView view) {
            return new OrganizationAIModelConfigurationResponse(view.configuration(), view.effectiveConfiguration(),
                    view.source());
        }
    }

    @Schema(name = "ModelConfigurationMigrationPreview")
    public record MigrationPreviewResponse(Map<String, Object> configuration, Map<String, Object> effectiveConfiguration) {
    }

    @Schema(name = "ModelConfigurationMetricPrice")
    public record MetricPrice(String metricCode, String displayName, String unit, double pricePerMinute, String currency,
            String roundingPolicy) {
    }

    @Schema(name = "ModelConfigurationPricingResponse")
    public record PricingResponse(@Schema(nullable = true) MetricPrice platformUsage,
            @Schema(nullable = true) MetricPrice dograhModel) {
    }

    static final List<Double> SPEEDS = List.of(0.8, 1.0, 1.2);
    /** Languages the managed speech-to-text is asked to recognize ("multi": detected). */
    static final List<String> MANAGED_LANGUAGES = List.of("multi", "en", "es", "fr", "de", "it", "pt", "nl", "pl", "ru",
            "tr", "ar", "hi", "ja", "ko", "zh");

    private final GetModelConfigurationUseCase get;
    private final SaveModelConfigurationUseCase save;
    private final PreviewModelMigrationUseCase preview;
    private final MigrateModelConfigurationUseCase migrate;
    private final Caller caller;
    private final PricingResponse pricing;

    public ModelConfigurationResource(GetModelConfigurationUseCase get, SaveModelConfigurationUseCase save,
            PreviewModelMigrationUseCase preview, MigrateModelConfigurationUseCase migrate, Caller caller,
            @ConfigProperty(name = "voiceagent.pricing.platform-usage-per-minute") Optional<Double> platformUsage,
            @ConfigProperty(name = "voiceagent.pricing.managed-models-per-minute") Optional<Double> managedModels,
            @ConfigProperty(name = "voiceagent.pricing.currency", defaultValue = "USD") String currency) {
        this.get = get;
        this.save = save;
        this.preview = preview;
        this.migrate = migrate;
        this.caller = caller;
        this.pricing = new PricingResponse(
                platformUsage.map(p -> new MetricPrice("platform_usage", "Platform usage", "minute", p, currency,
                        "per_second")).orElse(null),
                managedModels.map(p -> new MetricPrice("dograh_model", "Managed models", "minute", p, currency,
                        "per_second")).orElse(null));
    }

    @GET
    public Uni<OrganizationAIModelConfigurationResponse> configuration() {
        return get.get(caller.principal()).map(OrganizationAIModelConfigurationResponse::of);
    }

    @PUT
    @Operation(summary = "Save Model Configuration V2", description = "Checks every field of every service against its"
            + " provider's schema (422 with the field's loc); a secret sent back masked keeps the stored one")
    public Uni<OrganizationAIModelConfigurationResponse> saveConfiguration(
            @NotNull @RequestBody(content = @Content(schema = @Schema(ref = "OrganizationAIModelConfigurationV2")))
            Map<String, Object> body) {
        return save.save(caller.principal(), body).map(OrganizationAIModelConfigurationResponse::of);
    }

    @GET
    @Path("/defaults")
    @NonBlocking
    @Operation(summary = "Model Configuration V2 Defaults", description = "Every provider of every service with its"
            + " JSON schema and defaults, the managed section's options and the workflow configuration defaults")
    public Map<String, Object> defaults() {
        Map<String, Object> pipeline = new LinkedHashMap<>();
        pipeline.put("llm", ModelSchemas.of(ModelService.LLM, false));
        pipeline.put("tts", ModelSchemas.of(ModelService.TTS, false));
        pipeline.put("stt", ModelSchemas.of(ModelService.STT, false));
        pipeline.put("embeddings", ModelSchemas.of(ModelService.EMBEDDINGS, false));
        pipeline.put("default_providers", UserConfigurationResource.DEFAULT_PROVIDERS);
        Map<String, Object> realtime = new LinkedHashMap<>();
        realtime.put("realtime", ModelSchemas.of(ModelService.REALTIME, false));
        realtime.put("llm", ModelSchemas.of(ModelService.LLM, false));
        realtime.put("embeddings", ModelSchemas.of(ModelService.EMBEDDINGS, false));
        realtime.put("default_providers", UserConfigurationResource.DEFAULT_PROVIDERS);
        Map<String, Object> managed = new LinkedHashMap<>();
        managed.put("voices", List.of("default"));
        managed.put("allow_custom_input", true);
        managed.put("speeds", SPEEDS);
        managed.put("speed_range", Map.of("min", 0.5, "max", 2.0, "step", 0.1));
        managed.put("languages", MANAGED_LANGUAGES);
        managed.put("multilingual_languages", MANAGED_LANGUAGES.subList(1, MANAGED_LANGUAGES.size()));
        managed.put("defaults", Map.of("voice", "default", "speed", 1.0, "language", "multi"));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("dograh", managed);
        out.put("byok", Map.of("pipeline", pipeline, "realtime", realtime));
        out.put("workflow_configurations", WorkflowConfigurationDefaults.CONFIGURATION);
        out.put("text_chat_inactivity_timeout_constraints", WorkflowConfigurationDefaults.TEXT_CHAT_INACTIVITY);
        return out;
    }

    @GET
    @Path("/pricing")
    @NonBlocking
    @Operation(summary = "Model Configuration Pricing", description = "The installation's configured prices"
            + " (voiceagent.pricing.*); null where none is configured")
    public PricingResponse pricing() {
        return pricing;
    }

    @GET
    @Path("/migration-preview")
    @Operation(summary = "Preview Model Configuration Migration", description = "The v2 configuration the calling"
            + " user's legacy configuration would become (masked); 422 when it is incomplete")
    public Uni<MigrationPreviewResponse> migrationPreview() {
        return preview.preview(caller.principal())
                .map(p -> new MigrationPreviewResponse(p.configuration(), p.effectiveConfiguration()));
    }

    @POST
    @Path("/migrate")
    @Operation(summary = "Migrate Model Configuration", description = "Stores the calling user's legacy configuration"
            + " as the organization's v2 one; 409 when it has one already unless force=true")
    public Uni<OrganizationAIModelConfigurationResponse> migrate(@QueryParam("force") @DefaultValue("false") boolean force) {
        return migrate.migrate(caller.principal(), force).map(OrganizationAIModelConfigurationResponse::of);
    }
}
