package dev.voiceagent.adapters.rest.model;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.adapters.rest.auth.PublicEndpoint;
import dev.voiceagent.application.model.GetUserConfigurationUseCase;
import dev.voiceagent.application.model.ListVoicesUseCase;
import dev.voiceagent.application.model.ServiceStatus;
import dev.voiceagent.application.model.UpdateUserConfigurationUseCase;
import dev.voiceagent.application.model.UserConfigurationView;
import dev.voiceagent.application.model.ValidateModelConfigurationUseCase;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.workflow.WorkflowConfigurationDefaults;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/** The reference's user-level configuration (v1), its defaults, the provider checks and the voice catalogs. */
@Path("/api/v1/user/configurations")
public class UserConfigurationResource {

    /** The providers a new configuration form starts from. */
    static final Map<String, String> DEFAULT_PROVIDERS = Map.of("llm", "openai", "tts", "deepgram", "stt", "deepgram",
            "embeddings", "openai", "realtime", "openai_realtime");

    @Schema(name = "UserConfigurationRequestResponseSchema")
    public record UserConfiguration(@Schema(nullable = true) Map<String, Object> llm,
            @Schema(nullable = true) Map<String, Object> tts, @Schema(nullable = true) Map<String, Object> stt,
            @Schema(nullable = true) Map<String, Object> embeddings, @Schema(nullable = true) Map<String, Object> realtime,
            @Schema(nullable = true) Boolean isRealtime, @Schema(nullable = true) @Size(max = 64) String testPhoneNumber,
            @Schema(nullable = true) @Size(max = 64) String timezone,
            @Schema(nullable = true, description = "Read-only") Map<String, Object> organizationPricing) {

        static UserConfiguration of(UserConfigurationView v) {
            return new UserConfiguration(section(v, "llm"), section(v, "tts"), section(v, "stt"), section(v, "embeddings"),
                    section(v, "realtime"), v.realtime(), v.testPhoneNumber(), v.timezone(), v.organizationPricing());
        }

        @SuppressWarnings("unchecked")
        private static Map<String, Object> section(UserConfigurationView v, String name) {
            return (Map<String, Object>) v.services().get(name);
        }

        Map<String, Object> asBody(boolean testPhoneNumberSent, boolean timezoneSent) {
            Map<String, Object> body = new LinkedHashMap<>();
            put(body, "llm", llm);
            put(body, "tts", tts);
            put(body, "stt", stt);
            put(body, "embeddings", embeddings);
            put(body, "realtime", realtime);
            put(body, "is_realtime", isRealtime);
            if (testPhoneNumberSent) {
                body.put("test_phone_number", testPhoneNumber);
            }
            if (timezoneSent) {
                body.put("timezone", timezone);
            }
            return body;
        }

        private static void put(Map<String, Object> body, String key, Object value) {
            if (value != null) {
                body.put(key, value);
            }
        }
    }

    public record DefaultConfigurationsResponse(Map<String, Object> llm, Map<String, Object> tts,
            Map<String, Object> stt, Map<String, Object> embeddings, Map<String, Object> realtime,
            Map<String, String> defaultProviders,
            @Schema(ref = "WorkflowConfigurationDefaults") Map<String, Object> workflowConfigurations,
            @Schema(ref = "TextChatInactivityTimeoutConstraints") Map<String, Object> textChatInactivityTimeoutConstraints,
            @Schema(ref = "WidgetTexts") Map<String, Object> widgetTextDefaults) {
    }

    @Schema(name = "APIKeyStatus")
    public record ApiKeyStatus(String model, String message) {
    }

    @Schema(name = "APIKeyStatusResponse")
    public record ApiKeyStatusResponse(List<ApiKeyStatus> status) {
    }

    /** A failed provider check in the 422 list: loc, msg and type, plus the reference's model and message. */
    @RegisterForReflection // written from a Response entity: no return type names it
    public record ProviderCheckError(List<Object> loc, String msg, String type, String model, String message) {
    }

    @Schema(name = "VoiceInfo")
    public record VoiceInfo(String voiceId, String name, @Schema(nullable = true) String description,
            @Schema(nullable = true) String accent, @Schema(nullable = true) String gender,
            @Schema(nullable = true) String language, @Schema(nullable = true) String previewUrl) {
    }

    @Schema(name = "VoiceFacets")
    public record VoiceFacets(List<String> genders, List<String> accents, List<String> languages) {
    }

    @Schema(name = "VoicesResponse")
    public record VoicesResponse(String provider, List<VoiceInfo> voices, @Schema(nullable = true) VoiceFacets facets) {
    }

    private final GetUserConfigurationUseCase get;
    private final UpdateUserConfigurationUseCase update;
    private final ValidateModelConfigurationUseCase validate;
    private final ListVoicesUseCase voices;
    private final Caller caller;

    public UserConfigurationResource(GetUserConfigurationUseCase get, UpdateUserConfigurationUseCase update,
            ValidateModelConfigurationUseCase validate, ListVoicesUseCase voices, Caller caller) {
        this.get = get;
        this.update = update;
        this.validate = validate;
        this.voices = voices;
        this.caller = caller;
    }

    @GET
    @Path("/defaults")
    @PublicEndpoint
    @NonBlocking
    @Operation(summary = "Get Default Configurations", description = "Every provider of every service with its JSON"
            + " schema, the default providers and the workflow configuration defaults; no credentials needed")
    public DefaultConfigurationsResponse defaults() {
        return DEFAULTS;
    }

    private static final DefaultConfigurationsResponse DEFAULTS = new DefaultConfigurationsResponse(
            ModelSchemas.of(ModelService.LLM, true), ModelSchemas.of(ModelService.TTS, true),
            ModelSchemas.of(ModelService.STT, true), ModelSchemas.of(ModelService.EMBEDDINGS, true),
            ModelSchemas.of(ModelService.REALTIME, true), DEFAULT_PROVIDERS, WorkflowConfigurationDefaults.CONFIGURATION,
            WorkflowConfigurationDefaults.TEXT_CHAT_INACTIVITY, WorkflowConfigurationDefaults.WIDGET_TEXTS);

    @GET
    @Path("/user")
    @Operation(summary = "Get User Configurations", description = "The models in effect (the organization's v2"
            + " configuration when it has one, else the user's own), secrets masked, and the organization's"
            + " test_phone_number and timezone")
    public Uni<UserConfiguration> configuration() {
        return get.get(caller.principal()).map(UserConfiguration::of);
    }

    @PUT
    @Path("/user")
    @Operation(summary = "Update User Configurations", description = "Stores the given services in the user's own"
            + " (legacy) configuration, each checked against its provider's schema; a secret sent back masked keeps"
            + " the stored one; test_phone_number and timezone go to the organization's preferences")
    public Uni<UserConfiguration> updateConfiguration(@NotNull @Valid UserConfiguration body) {
        return update.update(caller.principal(), body.asBody(body.testPhoneNumber() != null, body.timezone() != null))
                .map(UserConfiguration::of);
    }

    @GET
    @Path("/user/validate")
    @Operation(summary = "Validate User Configurations", description = "Asks each configured provider whether its key"
            + " works (an OpenAI-compatible GET /models, ElevenLabs, Deepgram, Cartesia): 200 {status: [{model: all,"
            + " message: ok}]}, or 422 listing each service that failed with the provider's message. A configuration"
            + " found valid is not asked again for validity_ttl_seconds (0: always ask); a failure always is")
    @APIResponse(responseCode = "200", description = "Every key works",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = ApiKeyStatusResponse.class)))
    public Uni<Response> validateConfiguration(
            @QueryParam("validity_ttl_seconds") @DefaultValue("60") @Min(0) @Max(86400) int validityTtlSeconds) {
        return validate.validate(caller.principal(), Duration.ofSeconds(validityTtlSeconds))
                .map(problems -> problems.isEmpty()
                ? Response.ok(new ApiKeyStatusResponse(List.of(new ApiKeyStatus("all", "ok"))))
                        .type(MediaType.APPLICATION_JSON).build()
                : Response.status(422).type(MediaType.APPLICATION_JSON).entity(Map.of("detail", problems.stream()
                        .map(UserConfigurationResource::error).toList())).build());
    }

    private static ProviderCheckError error(ServiceStatus status) {
        return new ProviderCheckError(List.of("configuration", status.model()), status.message(), "provider_check_failed",
                status.model(), status.message());
    }

    @GET
    @Path("/voices/{provider}")
    @Operation(summary = "Get Voices", description = "A text-to-speech provider's voices: live from its API with the"
            + " organization's key where it lists them, OpenAI's, Deepgram Aura's and Sarvam's from their documentation,"
            + " the managed models' (dograh: OpenAI's voices, none when the installation manages no models), the"
            + " simulator's one; 404 for another provider")
    public Uni<VoicesResponse> voices(@PathParam("provider") @Size(max = 64) @Pattern(regexp = "[a-z0-9_]+") String provider,
            @QueryParam("model") @Size(max = 128) String model, @QueryParam("language") @Size(max = 32) String language,
            @QueryParam("q") @Size(max = 128) String q, @QueryParam("gender") @Size(max = 32) String gender,
            @QueryParam("accent") @Size(max = 64) String accent) {
        return voices.voices(caller.principal(), provider, new ListVoicesUseCase.Filters(language, q, gender, accent))
                .map(v -> new VoicesResponse(v.provider(), v.voices().stream().map(voice -> new VoiceInfo(voice.voiceId(),
                        voice.name(), voice.description(), voice.accent(), voice.gender(), voice.language(),
                        voice.previewUrl())).toList(), new VoiceFacets(v.genders(), v.accents(), v.languages())));
    }
}
