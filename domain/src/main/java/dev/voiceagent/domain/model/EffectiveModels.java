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
