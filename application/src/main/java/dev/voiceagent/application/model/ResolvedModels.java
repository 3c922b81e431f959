package dev.voiceagent.application.model;

import dev.voiceagent.domain.model.EffectiveModels;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An organization's models as resolved: where they come from (organization_v2, legacy_user_v1 or
 * empty), the effective settings per service, and how to reach each one.
 */
public record ResolvedModels(String source, EffectiveModels effective, Map<String, Object> organizationConfiguration,
        ManagedModels managed) {

    public static final String ORGANIZATION_V2 = "organization_v2";

    /** These models with a workflow's model_overrides (its configurations') over them. */
    public ResolvedModels forWorkflow(Map<String, Object> workflowConfigurations) {
        Object overrides = workflowConfigurations == null ? null : workflowConfigurations.get("model_overrides");
        return overrides == null ? this : new ResolvedModels(source, effective.withOverrides(overrides),
                organizationConfiguration, managed);
    }
    public static final String LEGACY_USER_V1 = "legacy_user_v1";
    public static final String EMPTY = "empty";

    /**
     * The endpoint of a service, empty when none is configured. A managed service without managed models
     * in this installation is a 400 naming what to configure.
     */
    public Optional<ModelEndpoint> endpoint(ModelService service) {
        Map<String, Object> settings = effective.of(service);
        if (settings == null) {
            return Optional.empty();
        }
        String provider = String.valueOf(settings.get("provider"));
        if ("dograh".equals(provider)) {
            if (!managed.available()) {
                throw new DomainRuleViolation(ManagedModels.UNAVAILABLE);
            }
            Map<String, Object> merged = new HashMap<>(settings);
            merged.remove("api_key");
            String model = switch (service) {
                case LLM, REALTIME -> managed.llmModel();
                case TTS -> managed.ttsModel();
                case STT -> managed.sttModel();
                case EMBEDDINGS -> managed.embeddingsModel();
            };
            if (service == ModelService.TTS && managed.ttsVoice() != null && "default".equals(settings.get("voice"))) {
                merged.put("voice", managed.ttsVoice());
            }
            return Optional.of(new ModelEndpoint(service, provider, model, managed.baseUrl(),
                    managed.apiKey() == null ? List.of() : List.of(managed.apiKey()), merged, true));
        }
        Object base = settings.containsKey("base_url") ? settings.get("base_url") : settings.get("endpoint");
        Object model = settings.get("model");
        return Optional.of(new ModelEndpoint(service, provider, model == null ? null : String.valueOf(model),
                base == null ? null : String.valueOf(base), keys(settings.get("api_key")), settings, false));
    }

    private static List<String> keys(Object value) {
        List<String> keys = new ArrayList<>();
        if (value instanceof String s && !s.isBlank()) {
            keys.add(s);
        } else if (value instanceof List<?> list) {
            list.stream().filter(k -> k instanceof String s && !s.isBlank()).forEach(k -> keys.add((String) k));
        }
        return keys;
    }
}
