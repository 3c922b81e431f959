package dev.voiceagent.domain.model;

import java.util.Locale;
import java.util.Optional;

/** What a model does for an agent: think (llm), speak (tts), listen (stt), embed text, or all at once (realtime). */
public enum ModelService {
    LLM, TTS, STT, EMBEDDINGS, REALTIME;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<ModelService> fromWireName(String name) {
        for (ModelService service : values()) {
            if (service.wireName().equals(name)) {
                return Optional.of(service);
            }
        }
        return Optional.empty();
    }
}
