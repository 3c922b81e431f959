package dev.voiceagent.adapters.outbound;

import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where a provider's OpenAI-compatible chat completions answer, and how it wants its key. A base URL the
 * organization chose (or a catalog default it did not change, such as a local Ollama) is guarded; the
 * installation's own addresses (the managed endpoint, the configured public APIs) are not.
 */
final class ChatTargets {

    /** A chat completions address: the URL, the auth headers and whether the address guard applies. */
    record Target(String url, Map<String, String> headers, boolean guarded) {
    }

    private ChatTargets() {
    }

    static Target of(ModelEndpoint endpoint, String key, ProviderApis apis) {
        String provider = endpoint.provider();
        String own = ProviderApis.own(endpoint);
        if (endpoint.managed()) {
            return bearer(ProviderApis.trim(endpoint.baseUrl()), key, false);
        }
        return switch (provider) {
            case "openai" -> own != null ? bearer(own, key, true) : bearer(apis.openai, key, false);
            case "google" -> bearer(apis.google, key, false);
            case "groq" -> own != null ? bearer(own, key, true)
                    : bearer(ProviderApis.OPENAI_COMPATIBLE.get("groq"), key, true);
            case "openrouter", "huggingface", "atlascloud", "minimax", "speaches" -> {
                String base = own != null ? own : ProviderApis.catalogDefault(endpoint).orElse(null);
                if (base == null) {
                    throw new DomainRuleViolation(ProviderApis.display(provider) + " needs a base_url");
                }
                Target target = bearer(base, key, true);
                if ("huggingface".equals(provider) && endpoint.settings().get("bill_to") instanceof String billTo
                        && !billTo.isBlank()) {
                    Map<String, String> headers = new LinkedHashMap<>(target.headers());
                    headers.put("X-HF-Bill-To", billTo);
                    yield new Target(target.url(), headers, true);
                }
                yield target;
            }
            case "azure" -> {
                String resource = Optional.ofNullable(endpoint.baseUrl()).filter(u -> !u.isBlank())
                        .orElseThrow(() -> new DomainRuleViolation("Azure OpenAI needs its endpoint"));
                String deployment = endpoint.model() == null ? "" : endpoint.model();
                String url = ProviderApis.trim(resource.strip()) + "/openai/deployments/"
                        + URLEncoder.encode(deployment, StandardCharsets.UTF_8) + "/chat/completions?api-version="
                        + URLEncoder.encode(apis.azureApiVersion, StandardCharsets.UTF_8);
                yield new Target(url, key == null ? Map.of() : Map.of("api-key", key), true);
            }
            default -> throw new DomainRuleViolation("The " + ProviderApis.display(provider) + " language model cannot"
                    + " hold a conversation here: use an OpenAI-compatible provider (openai with any base_url, groq,"
                    + " openrouter, google, azure, huggingface, speaches/Ollama, ...) or the simulator");
        };
    }

    private static Target bearer(String base, String key, boolean guarded) {
        return new Target(base + "/chat/completions", key == null ? Map.of() : Map.of("Authorization", "Bearer " + key),
                guarded);
    }
}
