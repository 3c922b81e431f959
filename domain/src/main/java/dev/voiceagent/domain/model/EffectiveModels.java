package dev.voiceagent.domain.model;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The settings an organization's agents really use, per service (each {provider, ...} or null): from
 * its v2 configuration, else the legacy user-level one. The reference's EffectiveAIModelConfiguration.
 */
public record EffectiveModels(Map<String, Object> llm, Map<String, Object> tts, Map<String, Object> stt,
        Map<String, Object> embeddings, Map<String, Object> realtime, boolean realtimeMode) {

    public static final EffectiveModels EMPTY = new EffectiveModels(null, null, null, null, null, false);

    public Map<String, Object> of(ModelService service) {
        return switch (service) {
            case LLM -> llm;
            case TTS -> tts;
            case STT -> stt;
            case EMBEDDINGS -> embeddings;
            case REALTIME -> realtime;
        };
    }

    /**
     * A workflow's model_overrides (its configurations') over these, as the reference resolves them: for llm, tts, stt
     * and realtime, an override naming another provider (or a service with none) replaces the section, one without a
     * provider or with the same one is merged field by field; is_realtime replaces the mode; the rest is inherited.
     */
    public EffectiveModels withOverrides(Object overrides) {
        if (!(overrides instanceof Map<?, ?> o) || o.isEmpty()) {
            return this;
        }
        boolean mode = o.get("is_realtime") instanceof Boolean b ? b : realtimeMode;
        return new EffectiveModels(merged(ModelService.LLM, llm, o.get("llm")), merged(ModelService.TTS, tts,
                o.get("tts")), merged(ModelService.STT, stt, o.get("stt")), embeddings,
                merged(ModelService.REALTIME, realtime, o.get("realtime")), mode);
    }

    private static Map<String, Object> merged(ModelService service, Map<String, Object> base, Object override) {
        if (!(override instanceof Map<?, ?> o) || o.isEmpty()) {
            return base;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        Object provider = o.get("provider");
        if (base != null && (provider == null || provider.equals(base.get("provider")))) {
            out.putAll(base);
        }
        o.forEach((k, v) -> out.put(String.valueOf(k), v));
        if (out.get("provider") == null) {
            return base;
        }
        // another provider: its catalog defaults fill what the override leaves out, as a saved configuration's do
        ModelCatalog.find(service, String.valueOf(out.get("provider"))).ifPresent(p -> p.fields().forEach(f -> {
            if (f.defaultValue() != null) {
                out.putIfAbsent(f.name(), f.defaultValue());
            }
        }));
        return out;
    }

    public boolean isEmpty() {
        return llm == null && tts == null && stt == null && embeddings == null && realtime == null;
    }

    /** {llm, tts, stt, embeddings, realtime, is_realtime}, the reference's shape. */
    public Map<String, Object> toMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("llm", llm);
        out.put("tts", tts);
        out.put("stt", stt);
        out.put("embeddings", embeddings);
        out.put("realtime", realtime);
        out.put("is_realtime", realtimeMode);
        return out;
    }
}
