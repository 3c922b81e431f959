package dev.voiceagent.adapters.outbound;

import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.model.ModelProviderCheck;
import dev.voiceagent.domain.model.ModelService;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a configured key with the provider itself: an OpenAI-compatible GET {base_url}/models (OpenAI,
 * Atlas Cloud, OpenRouter, Groq, Hugging Face, MiniMax, self-hosted Speaches, the installation's managed
 * endpoint), ElevenLabs GET /v1/user, Deepgram GET /v1/projects, Cartesia GET /voices, AssemblyAI GET
 * /v3/token (a temporary streaming token: the streaming service itself answers, and no session is opened, which it
 * would bill by the minute), Grok GET /v1/models, Azure OpenAI its resource's model list, Google Cloud
 * Speech-to-Text GET /v1/operations?pageSize=1 (its long-running operations: the key is checked, nothing billed).
 * Other providers are not asked (as in the reference). A refusal or an unreachable provider
 * is its message.
 */
@ApplicationScoped
public class ProviderChecks implements ModelProviderCheck {

    private final GuardedHttp http;
    private final ProviderApis apis;

    public ProviderChecks(GuardedHttp http, ProviderApis apis) {
        this.http = http;
        this.apis = apis;
    }

    @Override
    public Uni<Optional<String>> problem(ModelEndpoint endpoint) {
        String provider = endpoint.provider();
        String key = endpoint.apiKey();
        // only the installation's own addresses skip the guard: they are its operator's choice
        String own = ProviderApis.own(endpoint);
        boolean guarded = own != null;
        if (endpoint.service() == ModelService.STT && "google".equals(provider)) {
            return googleSpeech(key);
        }
        Base compatible = openAiCompatibleBase(endpoint, own);
        if (compatible != null) {
            Map<String, String> headers = key == null ? Map.of() : Map.of("Authorization", "Bearer " + key);
            return ask(compatible.url() + "/models", headers, compatible.guarded(), provider, compatible.url());
        }
        if (key == null && !"speaches".equals(provider)) {
            return Uni.createFrom().item(Optional.of(ProviderApis.display(provider) + " API key is missing"));
        }
        return switch (provider) {
            case "elevenlabs" -> {
                String base = own != null ? own : apis.elevenlabs;
                yield ask(base + "/v1/user", Map.of("xi-api-key", key), guarded, provider, base);
            }
            case "deepgram" -> ask(apis.deepgram + "/v1/projects", Map.of("Authorization", "Token " + key), false,
                    provider, apis.deepgram);
            case "cartesia" -> ask(apis.cartesia + "/voices?limit=1", Map.of("Authorization", "Bearer " + key,
                    "Cartesia-Version", apis.cartesiaVersion), false, provider, apis.cartesia);
            // a token never redeemed: it lapses unused within the minute
            case "assemblyai" -> ask(apis.assemblyai() + "/v3/token?expires_in_seconds=60",
                    Map.of("Authorization", key), false, provider, apis.assemblyai());
            case "grok_realtime" -> ask(apis.address("grok_realtime") + "/models", Map.of("Authorization",
                    "Bearer " + key), false, provider, apis.address("grok_realtime"));
            case "azure_realtime" -> azure(endpoint, key);
            default -> Uni.createFrom().item(Optional.empty());
        };
    }

    /**
     * Google Cloud Speech-to-Text: its v1 long-running operations listed (one at most) with the key as
     * {@code x-goog-api-key}. Google checks the key before the method (400 "API key not valid", 403 for a key or
     * project the API is not enabled for) and bills nothing for a listing.
     */
    private Uni<Optional<String>> googleSpeech(String key) {
        if (key == null) {
            return Uni.createFrom().item(Optional.of("Google Cloud Speech-to-Text needs an API key (the voice runtime"
                    + " signs in with one)"));
        }
        String base = apis.address("google_stt");
        return ask(base + "/v1/operations?pageSize=1", Map.of("x-goog-api-key", key), false, "google", base);
    }

    /**
     * Azure OpenAI: the resource's model list with the key as api-key (the GA v1 API's {@code /openai/v1/models}, or
     * {@code /openai/models} at a preview api-version), through the address guard: the resource is the tenant's.
     */
    private Uni<Optional<String>> azure(ModelEndpoint endpoint, String key) {
        Object resource = endpoint.settings().get("endpoint");
        if (!(resource instanceof String given) || given.isBlank()) {
            return Uni.createFrom().item(Optional.of("Azure OpenAI needs the endpoint of its resource"));
        }
        String base = ProviderApis.trim(given.strip());
        Object version = endpoint.settings().get("api_version");
        String url = version == null || "v1".equals(version) ? base + "/openai/v1/models"
                : base + "/openai/models?api-version=" + URLEncoder.encode(String.valueOf(version),
                        StandardCharsets.UTF_8);
        return ask(url, Map.of("api-key", key), true, endpoint.provider(), base);
    }

    /** An OpenAI-compatible API's base URL, and whether the address guard applies to it. */
    private record Base(String url, boolean guarded) {
    }

    /**
     * Where GET /models answers for an OpenAI-compatible endpoint; null for the other providers. Only the
     * installation's own addresses skip the guard: a catalog default the organization kept (a local Ollama)
     * is guarded like a base URL it typed.
     */
    private Base openAiCompatibleBase(ModelEndpoint endpoint, String own) {
        String provider = endpoint.provider();
        if (endpoint.managed()) {
            return new Base(ProviderApis.trim(endpoint.baseUrl()), false);
        }
        if (own != null && OPENAI_COMPATIBLE_WITH_BASE.contains(provider)) {
            return new Base(own, true);
        }
        if (provider.equals("openai") || provider.equals("openai_realtime")) {
            return new Base(apis.openai, false);
        }
        if (provider.equals("google")) {
            return new Base(apis.google, false);
        }
        if (ProviderApis.OPENAI_COMPATIBLE.containsKey(provider)) {
            return new Base(ProviderApis.OPENAI_COMPATIBLE.get(provider), true);
        }
        if (OPENAI_COMPATIBLE_WITH_BASE.contains(provider)) {
            return ProviderApis.catalogDefault(endpoint).map(url -> new Base(url, true)).orElse(null);
        }
        return null;
    }

    private static final Set<String> OPENAI_COMPATIBLE_WITH_BASE = Set.of("openai",
            "openai_realtime", "groq", "xai", "atlascloud", "openrouter", "huggingface", "minimax", "speaches");

    private Uni<Optional<String>> ask(String url, Map<String, String> headers, boolean guarded, String provider,
            String base) {
        String name = ProviderApis.display(provider);
        return http.get(url, headers, guarded).map(reply -> {
            if (reply.status() / 100 == 2) {
                return Optional.<String>empty();
            }
            String said = message(reply.body());
            if (reply.status() == 401 || reply.status() == 403) {
                return Optional.of("Invalid " + name + " API key: " + base + " refused it (" + reply.status()
                        + (said == null ? "" : ": " + said) + ")");
            }
            return Optional.of(name + " at " + base + " answered " + reply.status() + (said == null ? "" : ": " + said));
        }).onFailure(GuardedHttp.Unreachable.class).recoverWithItem(failure -> Optional.of(name + ": "
                + failure.getMessage()));
    }

    /** The provider's own words from an error body ({"error": {"message"}}, {"detail": {"message"}}, {"err_msg"}...). */
    static String message(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            JsonObject json = new JsonObject(body);
            for (String path : new String[] {"error.message", "detail.message", "err_msg", "message", "error", "detail"}) {
                Object value = json;
                for (String part : path.split("\\.")) {
                    value = value instanceof JsonObject o ? o.getValue(part) : null;
                }
                if (value instanceof String s && !s.isBlank()) {
                    return cut(s);
                }
            }
            return cut(body);
        } catch (DecodeException | ClassCastException notJson) {
            return cut(body);
        }
    }

    private static String cut(String text) {
        String flat = text.strip().replace('\n', ' ');
        return flat.length() <= 300 ? flat : flat.substring(0, 300) + "...";
    }
}
