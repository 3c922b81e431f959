package dev.voiceagent.application.model;

import dev.voiceagent.domain.model.ModelService;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How to reach one model service of an organization: the provider, the model, the base URL or endpoint
 * (null where the provider has one fixed API), the keys (several keys of one account are used in turn)
 * and every other setting; {@code managed} when the installation's own models serve it.
 */
public record ModelEndpoint(ModelService service, String provider, String model, String baseUrl, List<String> apiKeys,
        Map<String, Object> settings, boolean managed) {

    /** The setting that carries a workflow's dictionary to speech-to-text. */
    public static final String KEYTERMS = "keyterms";

    public ModelEndpoint {
        apiKeys = List.copyOf(apiKeys);
        settings = Map.copyOf(settings);
    }

    /** The first key, or null when the provider needs none. */
    public String apiKey() {
        return apiKeys.isEmpty() ? null : apiKeys.getFirst();
    }

    /**
     * This endpoint with the words its speech-to-text is told to expect (a workflow's dictionary) in its settings, as
     * {@code keyterms}; itself when there are none.
     */
    public ModelEndpoint withKeyterms(List<String> keyterms) {
        if (keyterms.isEmpty()) {
            return this;
        }
        Map<String, Object> more = new HashMap<>(settings);
        more.put(KEYTERMS, List.copyOf(keyterms));
        return new ModelEndpoint(service, provider, model, baseUrl, apiKeys, more, managed);
    }
}
