package dev.voiceagent.application.model;

import dev.voiceagent.domain.model.ModelService;
import java.util.List;
import java.util.Map;

/**
 * How to reach one model service of an organization: the provider, the model, the base URL or endpoint
 * (null where the provider has one fixed API), the keys (several keys of one account are used in turn)
 * and every other setting; {@code managed} when the installation's own models serve it.
 */
public record ModelEndpoint(ModelService service, String provider, String model, String baseUrl, List<String> apiKeys,
        Map<String, Object> settings, boolean managed) {

    public ModelEndpoint {
        apiKeys = List.copyOf(apiKeys);
        settings = Map.copyOf(settings);
    }

    /** The first key, or null when the provider needs none. */
    public String apiKey() {
        return apiKeys.isEmpty() ? null : apiKeys.getFirst();
    }
}
