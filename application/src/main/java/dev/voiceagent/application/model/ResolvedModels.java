package dev.voiceagent.application.model;

import dev.voiceagent.domain.model.EffectiveModels;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.model.ModelSettingsCheck;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
        return settings == null ? Optional.empty() : Optional.of(endpoint(service, primary(settings)));
    }

    /**
     * The endpoints of a service in the order a call uses them: the configured one, then the fallbacks it names
     * (settings' {@code fallbacks}); empty when none is configured.
     */
    public List<ModelEndpoint> endpoints(ModelService service) {
        Map<String, Object> settings = effective.of(service);
        if (settings == null) {
            return List.of();
        }
        List<ModelEndpoint> out = new ArrayList<>();
        out.add(endpoint(service, primary(settings)));
        if (settings.get(ModelSettingsCheck.FALLBACKS) instanceof List<?> fallbacks) {
            for (Object fallback : fallbacks) {
                if (fallback instanceof Map<?, ?> map) {
                    Map<String, Object> own = new LinkedHashMap<>();
                    map.forEach((k, v) -> own.put(String.valueOf(k), v));
                    out.add(endpoint(service, own));
                }
            }
        }
        return out;
    }

    /** A service's own settings, without the fallbacks it names. */
    private static Map<String, Object> primary(Map<String, Object> settings) {
        if (!settings.containsKey(ModelSettingsCheck.FALLBACKS)) {
            return settings;
        }
        Map<String, Object> own = new LinkedHashMap<>(settings);
        own.remove(ModelSettingsCheck.FALLBACKS);
        return own;
    }

    private ModelEndpoint endpoint(ModelService service, Map<String, Object> settings) {
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
            return new ModelEndpoint(service, provider, model, managed.baseUrl(),
                    managed.apiKey() == null ? List.of() : List.of(managed.apiKey()), merged, true);
        }
        Object base = settings.containsKey("base_url") ? settings.get("base_url") : settings.get("endpoint");
        Object model = settings.get("model");
        return new ModelEndpoint(service, provider, model == null ? null : String.valueOf(model),
                base == null ? null : String.valueOf(base), keys(settings.get("api_key")), settings, false);
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
