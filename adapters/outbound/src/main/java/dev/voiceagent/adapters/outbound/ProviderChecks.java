package dev.voiceagent.adapters.outbound;

import dev.voiceagent.adapters.outbound.speech.GoogleTokens;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.model.ModelProviderCheck;
import dev.voiceagent.domain.model.ModelService;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Checks a configured key with the provider itself, by the cheapest authenticated read it offers that neither speaks
 * nor bills (each case says which): an OpenAI-compatible GET {base_url}/models (OpenAI, Atlas Cloud, OpenRouter, Groq,
 * xAI, Hugging Face, MiniMax, self-hosted Speaches, the installation's managed endpoint), a speech provider's account,
 * voice or model list, AssemblyAI's temporary streaming token (the streaming service itself answers, and no session
 * is opened, which it would bill by the minute). Other providers are not asked (as in the reference). A refusal or an
 * unreachable provider is its message.
 */
@ApplicationScoped
public class ProviderChecks implements ModelProviderCheck {

    private final GuardedHttp http;
    private final ProviderApis apis;
    private final GoogleTokens googleTokens;

    public ProviderChecks(GuardedHttp http, ProviderApis apis) {
        this.http = http;
        this.apis = apis;
        this.googleTokens = new GoogleTokens(http, apis, CHECK_LIMIT);
    }

    @Override
    public Uni<Optional<String>> problem(ModelEndpoint endpoint) {
        String provider = endpoint.provider();
        String key = endpoint.apiKey();
        // only the installation's own addresses skip the guard: they are its operator's choice
        String own = ProviderApis.own(endpoint);
        boolean guarded = own != null;
        if (endpoint.service() == ModelService.TTS && provider.equals("google")) {
            return googleTts(endpoint, key);
        }
        if (endpoint.service() == ModelService.TTS && provider.equals("minimax")) {
            return miniMaxTts(own, key);
        }
        if (endpoint.service() == ModelService.STT && "google".equals(provider)) {
            return googleSpeech(endpoint, key);
        }
        Base compatible = openAiCompatibleBase(endpoint, own);
        if (compatible != null) {
            Map<String, String> headers = key == null ? Map.of() : Map.of("Authorization", "Bearer " + key);
            return ask(compatible.url() + "/models", headers, compatible.guarded(), provider, compatible.url());
        }
        // a service account's access token: nothing of Vertex billed (Vertex has no free call that would ask more)
        if ("google_vertex_realtime".equals(provider)) {
            return withGoogleToken("Gemini Live on Vertex AI", endpoint, "Gemini Live on Vertex AI needs a service"
                    + " account's credentials", token -> Uni.createFrom().item(Optional.empty()));
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
            case "camb" -> ask(apis.address("camb") + "/list-voices", Map.of("x-api-key", key), false, provider,
                    apis.address("camb"));
            case "rime" -> {
                String base = apis.address("rime");
                String voice = URLEncoder.encode(setting(endpoint, "voice", "celeste"), StandardCharsets.UTF_8);
                String model = URLEncoder.encode(setting(endpoint, "model", "arcana"), StandardCharsets.UTF_8);
                yield opens(ProviderApis.websocket(base) + "/ws3?speaker=" + voice + "&modelId=" + model,
                        Map.of("Authorization", "Bearer " + key), provider, base);
            }
            case "lmnt" -> {
                String base = apis.address("lmnt");
                yield ask(base + "/v1/account", Map.of("X-API-Key", key, "lmnt-version", "1.1"), false, provider,
                        base);
            }
            case "inworld" -> {
                String base = apis.address("inworld");
                yield ask(base + "/voices/v1/voices?pageSize=1", Map.of("Authorization", "Basic " + key), false,
                        provider, base);
            }
            case "speechmatics" -> ask(apis.address("speechmatics_batch") + "/v2/jobs?limit=1",
                    Map.of("Authorization", "Bearer " + key), false, provider, apis.address("speechmatics_batch"));
            case "gladia" -> ask(apis.address("gladia") + "/v2/live?limit=1", Map.of("x-gladia-key", key), false,
                    provider, apis.address("gladia"));
            case "sarvam" -> ask(apis.address("sarvam") + "/speech-to-text/job/v1/" + NO_JOB + "/status",
                    Map.of("api-subscription-key", key), false, provider, apis.address("sarvam"), true);
            case "smallest" -> ask(apis.address("smallest") + "/waves/v1/voice-cloning",
                    Map.of("Authorization", "Bearer " + key), false, provider, apis.address("smallest"));
            case "azure_speech" -> azureSpeech(endpoint, key);
            // the models the key may use: Google AI's list, free
            case "google_realtime" -> ask(apis.address("google_realtime") + "/v1beta/models?pageSize=1",
                    Map.of("x-goog-api-key", key), false, provider, apis.address("google_realtime"));
            // the account the key belongs to
            case "ultravox_realtime" -> ask(apis.address("ultravox_realtime") + "/api/accounts/me",
                    Map.of("X-API-Key", key), false, provider, apis.address("ultravox_realtime"));
            default -> Uni.createFrom().item(Optional.empty());
        };
    }

    /** Azure Speech: the voices of the configured region (the same key serves its speech-to-text). */
    private Uni<Optional<String>> azureSpeech(ModelEndpoint endpoint, String key) {
        String base;
        try {
            base = apis.azureSpeech(setting(endpoint, "region", "eastus"));
        } catch (IllegalArgumentException notARegion) {
            return Uni.createFrom().item(Optional.of("Azure Speech: " + notARegion.getMessage()));
        }
        return ask(base + "/cognitiveservices/voices/list", Map.of("Ocp-Apim-Subscription-Key", key), false,
                "azure_speech", base);
    }

    /**
     * Google Cloud text-to-speech (not the Gemini API the other Google services are checked at): the configured
     * language's voices, with the API key or else an access token of the service account whose key the credentials
     * are (asked for first: the token endpoint refuses a bad or deleted key).
     */
    private Uni<Optional<String>> googleTts(ModelEndpoint endpoint, String key) {
        String base;
        try {
            base = apis.googleTts(setting(endpoint, "location", null));
        } catch (IllegalArgumentException notALocation) {
            return Uni.createFrom().item(Optional.of("Google Cloud: " + notALocation.getMessage()));
        }
        String language = setting(endpoint, "language", "en-US");
        String voices = base + "/v1/voices?languageCode=" + URLEncoder.encode(language, StandardCharsets.UTF_8);
        if (key != null && !key.isBlank()) {
            return ask(voices, Map.of("x-goog-api-key", key), false, "google", base);
        }
        return withGoogleToken("Google Cloud", endpoint, "Google Cloud text-to-speech needs an API key or a service"
                + " account's credentials", token -> ask(voices, Map.of("Authorization", "Bearer " + token), false,
                        "google", base));
    }

    /**
     * What {@code then} asks with an access token of the service account whose key the configuration's
     * {@code credentials} are (the token the calls of that account share: GoogleTokens), or the problem: no
     * credentials ({@code missing}), not a service account's key, a token refused (Google's words).
     */
    private Uni<Optional<String>> withGoogleToken(String name, ModelEndpoint endpoint, String missing,
            Function<String, Uni<Optional<String>>> then) {
        Object credentials = endpoint.settings().get("credentials");
        if (credentials == null || credentials instanceof String text && text.isBlank()) {
            return Uni.createFrom().item(Optional.of(missing));
        }
        GoogleTokens.Account account;
        try {
            account = GoogleTokens.account(credentials);
        } catch (IllegalArgumentException notAnAccount) {
            return Uni.createFrom().item(Optional.of(name + ": " + notAnAccount.getMessage()));
        }
        return googleTokens.token(account).chain(then::apply)
                .onFailure().recoverWithItem(failure -> Optional.of(name + ": " + failure.getMessage()));
    }

    /**
     * MiniMax's speech API (its LLM is checked as OpenAI-compatible): its system voices, POST /v1/get_voice (MiniMax
     * has no GET that lists anything for speech; this one is not billed). MiniMax answers a refused key under HTTP
     * 200, with the refusal in {@code base_resp}. The base is the organization's T2A endpoint less {@code /t2a_v2}
     * (guarded) or the installation's.
     */
    private Uni<Optional<String>> miniMaxTts(String own, String key) {
        if (key == null || key.isBlank()) {
            return Uni.createFrom().item(Optional.of("MiniMax API key is missing"));
        }
        String base = own == null ? apis.address("minimax")
                : own.endsWith("/t2a_v2") ? own.substring(0, own.length() - "/t2a_v2".length()) : own;
        return http.postJson(base + "/get_voice", Map.of("Authorization", "Bearer " + key),
                new JsonObject().put("voice_type", "system").encode(), CHECK_LIMIT, own != null).map(reply -> {
                    if (reply.status() / 100 != 2) {
                        String said = message(reply.body());
                        String status = reply.status() + (said == null ? "" : ": " + said);
                        return Optional.of(reply.status() == 401 || reply.status() == 403 ? "Invalid MiniMax API key: "
                                + base + " refused it (" + status + ")" : "MiniMax at " + base + " answered " + status);
                    }
                    JsonObject said = parsed(reply.body()).getValue("base_resp") instanceof JsonObject o ? o
                            : new JsonObject();
                    int code = said.getValue("status_code") instanceof Number n ? n.intValue() : 0;
                    if (code == 0) {
                        return Optional.<String>empty();
                    }
                    String words = code + ": " + (said.getValue("status_msg") instanceof String m ? m : "an error");
                    return Optional.of(code == 1004 || code == 2049 ? "Invalid MiniMax API key: " + base
                            + " refused it (" + words + ")" : "MiniMax at " + base + " answered " + words);
                }).onFailure(GuardedHttp.Unreachable.class).recoverWithItem(failure -> Optional.of("MiniMax: "
                        + failure.getMessage()));
    }

    /** A POST check's time limit (a GET's is the client's). */
    private static final Duration CHECK_LIMIT = Duration.ofSeconds(10);

    private static JsonObject parsed(String body) {
        try {
            return new JsonObject(body);
        } catch (DecodeException | ClassCastException notJson) {
            return new JsonObject();
        }
    }

    /**
     * Google Cloud Speech-to-Text: its v1 long-running operations listed (one at most) with the key as
     * {@code x-goog-api-key} or else an access token of the service account whose key the credentials are (asked for
     * first, as for text-to-speech). Google checks the key before the method (400 "API key not valid", 403 for a key
     * or project the API is not enabled for) and bills nothing for a listing.
     */
    private Uni<Optional<String>> googleSpeech(ModelEndpoint endpoint, String key) {
        String base = apis.address("google_stt");
        String operations = base + "/v1/operations?pageSize=1";
        if (key != null && !key.isBlank()) {
            return ask(operations, Map.of("x-goog-api-key", key), false, "google", base);
        }
        return withGoogleToken("Google Cloud Speech-to-Text", endpoint, "Google Cloud Speech-to-Text needs an API key"
                + " or a service account's credentials", token -> ask(operations, Map.of("Authorization", "Bearer "
                        + token), false, "google", base));
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

    /** How long a check's WebSocket may take to open (the default time limit of a provider's request). */
    private static final Duration SOCKET_LIMIT = Duration.ofSeconds(10);

    private static String setting(ModelEndpoint endpoint, String name, String fallback) {
        return endpoint.settings().get(name) instanceof String s && !s.isBlank() ? s : fallback;
    }

    /** Opens a provider's WebSocket and closes it at once: the key is good when the upgrade is. */
    private Uni<Optional<String>> opens(String url, Map<String, String> headers, String provider, String base) {
        String name = ProviderApis.display(provider);
        return Uni.createFrom().completionStage(() -> http.webSocket(url, headers, SOCKET_LIMIT, false)
                .toCompletionStage()).map(ws -> {
                    ws.close();
                    return Optional.<String>empty();
                }).onFailure(GuardedHttp.SocketRefused.class).recoverWithItem(failure -> {
                    int status = ((GuardedHttp.SocketRefused) failure).status;
                    return Optional.of(status == 401 || status == 403
                            ? "Invalid " + name + " API key: " + base + " refused it (" + status + ")"
                            : name + " at " + base + " answered " + status);
                }).onFailure(GuardedHttp.Unreachable.class).recoverWithItem(failure -> Optional.of(name + ": "
                        + failure.getMessage()));
    }
    /** A job id no job has: asking its status costs nothing and tells a refused key from a taken one. */
    static final String NO_JOB = "voiceagent-key-check";

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
        return ask(url, headers, guarded, provider, base, false);
    }

    /**
     * @param refusalOnly whether only a refused key (401, 403) or a failing provider (5xx) is a problem: the question
     *        asks for something that does not exist, and a 4xx about it means the key was taken
     */
    private Uni<Optional<String>> ask(String url, Map<String, String> headers, boolean guarded, String provider,
            String base, boolean refusalOnly) {
        String name = ProviderApis.display(provider);
        return http.get(url, headers, guarded).map(reply -> {
            if (reply.status() / 100 == 2 || refusalOnly && reply.status() / 100 == 4 && reply.status() != 401
                    && reply.status() != 403) {
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
