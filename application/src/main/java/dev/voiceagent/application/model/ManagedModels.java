package dev.voiceagent.application.model;

/**
 * The models an installation manages for its organizations (what the reference's "dograh" mode names):
 * one OpenAI-compatible endpoint and key, and the model used for each service. None configured: managed
 * configurations are still stored, and using them is refused with a clear message.
 */
public record ManagedModels(String baseUrl, String apiKey, String llmModel, String ttsModel, String ttsVoice,
        String sttModel, String embeddingsModel) {

    public static final String UNAVAILABLE = "This installation has no managed models: set"
            + " VOICEAGENT_MANAGED_MODELS_BASE_URL (an OpenAI-compatible endpoint) or configure your own provider keys"
            + " (mode byok)";

    public static ManagedModels none() {
        return new ManagedModels(null, null, null, null, null, null, null);
    }

    public boolean available() {
        return baseUrl != null && !baseUrl.isBlank();
    }
}
