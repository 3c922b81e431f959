package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.UnsupportedSpeechProvider;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The speech-to-speech models that speak their own protocols rather than OpenAI's Realtime one ({@link RealtimeModels}
 * hands them over): Gemini Live on Google AI ({@code google_realtime}: the key as {@code x-goog-api-key}, at the
 * installation's address, VOICEAGENT_MODELS_GOOGLE_REALTIME_BASE_URL, default
 * https://generativelanguage.googleapis.com) and on Vertex AI ({@code google_vertex_realtime}: the project's model at
 * its location, a service account's access token ({@link GoogleTokens}: shared with every other use of that account);
 * Google's host for the location, or the installation's VOICEAGENT_MODELS_GOOGLE_VERTEX_REALTIME_BASE_URL in its
 * place; a configuration without credentials uses the installation's Application Default Credentials, a service
 * account's key file named by GOOGLE_APPLICATION_CREDENTIALS, as the reference does); Ultravox
 * ({@code ultravox_realtime}: calls created at the installation's address,
 * VOICEAGENT_MODELS_ULTRAVOX_REALTIME_BASE_URL, default https://api.ultravox.ai, with the key as {@code X-API-Key},
 * then joined at the address Ultravox gives). Each stream outlives a provider's hiccup within the installation's
 * budget ({@code voiceagent.voice.retry.*}).
 */
@Singleton
public class LiveModels {

    static final String GEMINI_PATH = "/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent";
    static final String VERTEX_PATH = "/ws/google.cloud.aiplatform.v1.LlmBidiService/BidiGenerateContent";
    static final String GEMINI_MODEL = "gemini-3.1-flash-live-preview";
    static final String VERTEX_MODEL = "google/gemini-live-2.5-flash-native-audio";
    /** A Google Cloud location as it goes into a host name ({@code global}, {@code us-central1}, {@code eu}). */
    private static final Pattern LOCATION = Pattern.compile("[a-z]+(-[a-z0-9]+)*");
    private static final Set<String> PROVIDERS = Set.of("google_realtime", "google_vertex_realtime",
            "ultravox_realtime");

    private final GuardedHttp http;
    private final ProviderApis apis;
    private final Vertx vertx;
    private final Duration timeout;
    private final RetryBudget budget;
    private final GoogleTokens googleTokens;
    /** The installation's Application Default Credentials: a service account's key file, or none. */
    private final Optional<String> defaultCredentials;
    private Future<GoogleTokens.Account> defaultAccount;

    /**
     * @param timeout the time limit of one connection (its upgrade, then its setup) or token request
     * @param attempts the most tries of a connection, the first included
     * @param backoff the wait before the second try (doubled after each failure, with jitter)
     * @param budget how long after the first failure (or a drop) a try may still start
     * @param defaultCredentials the key file of Google Cloud's Application Default Credentials
     *     (GOOGLE_APPLICATION_CREDENTIALS), for a Vertex AI configuration without credentials of its own
     */
    public LiveModels(GuardedHttp http, ProviderApis apis, Vertx vertx,
            @ConfigProperty(name = "voiceagent.models.timeout", defaultValue = "PT10S") Duration timeout,
            @ConfigProperty(name = "voiceagent.voice.retry.attempts", defaultValue = "3") int attempts,
            @ConfigProperty(name = "voiceagent.voice.retry.backoff", defaultValue = "PT0.2S") Duration backoff,
            @ConfigProperty(name = "voiceagent.voice.retry.budget", defaultValue = "PT2S") Duration budget,
            @ConfigProperty(name = "google.application.credentials") Optional<String> defaultCredentials) {
        this.http = http;
        this.defaultCredentials = defaultCredentials.filter(path -> !path.isBlank());
        this.apis = apis;
        this.vertx = vertx;
        this.timeout = timeout;
        this.budget = new RetryBudget(attempts, backoff, budget);
        this.googleTokens = new GoogleTokens(http, apis, timeout);
    }

    /** Whether {@code provider} is one of these. */
    public static boolean serves(String provider) {
        return PROVIDERS.contains(provider);
    }

    public SpeechToSpeech.Stream open(ModelEndpoint endpoint, AudioFormat format, SpeechToSpeech.Listener listener) {
        return switch (endpoint.provider()) {
            case "google_realtime" -> gemini(endpoint, format, listener);
            case "google_vertex_realtime" -> vertex(endpoint, format, listener);
            case "ultravox_realtime" -> ultravox(endpoint, format, listener);
            default -> throw new UnsupportedSpeechProvider("The voice runtime cannot use " + ProviderApis.display(
                    endpoint.provider()) + " for speech-to-speech");
        };
    }

    private SpeechToSpeech.Stream gemini(ModelEndpoint endpoint, AudioFormat format,
            SpeechToSpeech.Listener listener) {
        String key = SpeechProviders.key(endpoint, "Gemini Live");
        String model = SpeechProviders.setting(endpoint, "model", endpoint.model(), GEMINI_MODEL);
        String url = SpeechProviders.websocket(apis.address("google_realtime")) + GEMINI_PATH;
        GeminiLive.Model setup = new GeminiLive.Model(model.startsWith("models/") ? model : "models/" + model,
                SpeechProviders.setting(endpoint, "voice", null, "Puck"),
                GeminiLive.languageCode(SpeechProviders.setting(endpoint, "language", null, "en")),
                temperature(endpoint), false);
        Map<String, String> headers = Map.of("x-goog-api-key", key);
        return new GeminiLive(() -> http.webSocket(url, headers, timeout, false), vertx, budget, timeout, format, setup,
                "Gemini Live", listener);
    }

    /**
     * Vertex AI: {@code projects/{project}/locations/{location}/publishers/{publisher}/models/{model}} (a model given
     * as {@code publisher/model}, as the catalog's default is, or bare for Google's; as google-genai names them) at
     * the location's host: {@code aiplatform.googleapis.com} for global, {@code aiplatform.{us|eu}.rep.googleapis.com}
     * for the multi-regions, {@code {location}-aiplatform.googleapis.com} otherwise.
     */
    private SpeechToSpeech.Stream vertex(ModelEndpoint endpoint, AudioFormat format,
            SpeechToSpeech.Listener listener) {
        String project = SpeechProviders.setting(endpoint, "project_id", null, null);
        if (project == null) {
            throw new UnsupportedSpeechProvider("Gemini Live on Vertex AI needs the project_id of the Google Cloud"
                    + " project in the model configuration");
        }
        String location = SpeechProviders.setting(endpoint, "location", null, "global").strip();
        if (!LOCATION.matcher(location).matches()) {
            throw new UnsupportedSpeechProvider("Gemini Live on Vertex AI: " + location + " is not a Google Cloud"
                    + " location");
        }
        Object credentials = endpoint.settings().get("credentials");
        Supplier<Future<GoogleTokens.Account>> account;
        if (credentials == null || credentials instanceof String text && text.isBlank()) {
            account = this::defaultAccount;
        } else {
            GoogleTokens.Account own;
            try {
                own = GoogleTokens.account(credentials);
            } catch (IllegalArgumentException notAnAccount) {
                throw new UnsupportedSpeechProvider("Gemini Live on Vertex AI: " + notAnAccount.getMessage());
            }
            account = () -> Future.succeededFuture(own);
        }
        String model = SpeechProviders.setting(endpoint, "model", endpoint.model(), VERTEX_MODEL).strip();
        String url = SpeechProviders.websocket(vertexHost(apis.address("google_vertex_realtime"), location))
                + VERTEX_PATH;
        GeminiLive.Model setup = new GeminiLive.Model(vertexModel(project.strip(), location, model),
                SpeechProviders.setting(endpoint, "voice", null, "Charon"),
                GeminiLive.languageCode(SpeechProviders.setting(endpoint, "language", null, "en")),
                temperature(endpoint), true);
        return new GeminiLive(() -> account.get().compose(signer -> Future.fromCompletionStage(googleTokens
                        .token(signer).subscribeAsCompletionStage()))
                .compose(token -> http.webSocket(url, Map.of("Authorization", "Bearer " + token), timeout, false)),
                vertx, budget, timeout, format, setup, "Gemini Live on Vertex AI", listener);
    }

    /**
     * The account of the installation's Application Default Credentials (a service account's key file, read once,
     * without blocking), as the reference falls back to them; none configured fails every connection with the reason.
     */
    private synchronized Future<GoogleTokens.Account> defaultAccount() {
        if (defaultCredentials.isEmpty()) {
            return Future.failedFuture(new SpeechRequests.Said("the configuration has no service account credentials"
                    + " and the installation no Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS)",
                    false));
        }
        if (defaultAccount == null) {
            defaultAccount = vertx.fileSystem().readFile(defaultCredentials.get())
                    .map(file -> GoogleTokens.account(file.toString(StandardCharsets.UTF_8)))
                    .recover(failure -> Future.failedFuture(new SpeechRequests.Said("the installation's Application"
                            + " Default Credentials: " + failure.getMessage(), false)));
        }
        return defaultAccount;
    }

    /** Ultravox: a call created at the installation's Ultravox address with the key, then joined. */
    private SpeechToSpeech.Stream ultravox(ModelEndpoint endpoint, AudioFormat format,
            SpeechToSpeech.Listener listener) {
        String key = SpeechProviders.key(endpoint, "Ultravox");
        String base = apis.address("ultravox_realtime");
        UltravoxCall.Starter starter = (body, prior) -> {
            String url = base + "/api/calls" + (prior == null ? "" : "?priorCallId="
                    + URLEncoder.encode(prior, StandardCharsets.UTF_8));
            return Future.fromCompletionStage(http.postJson(url, Map.of("X-API-Key", key), body.encode(), timeout,
                    false).subscribeAsCompletionStage()).compose(reply -> {
                        if (reply.status() / 100 != 2) {
                            String message = "POST /api/calls answered " + reply.status() + ultravoxWords(reply.body());
                            return Future.failedFuture(RetryBudget.transientStatus(reply.status())
                                    ? new IllegalStateException(message) : new UltravoxCall.Refused(message));
                        }
                        JsonObject call = new JsonObject(reply.body());
                        String join = call.getString("joinUrl");
                        if (join == null) {
                            return Future.failedFuture(new UltravoxCall.Refused("the created call has no joinUrl"));
                        }
                        return http.webSocket(join, Map.of(), timeout, false)
                                .map(ws -> new UltravoxCall.Joined(call.getString("callId"), ws));
                    });
        };
        return new UltravoxCall(starter, vertx, budget, format,
                SpeechProviders.setting(endpoint, "model", endpoint.model(), "ultravox-v0.7"),
                SpeechProviders.setting(endpoint, "voice", null, "Mark"), listener);
    }

    /** Ultravox's words in a refusal ({@code {"detail": ...}}, or the body itself). */
    private static String ultravoxWords(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        String words = body.strip();
        try {
            Object detail = new JsonObject(words).getValue("detail");
            if (detail instanceof String given && !given.isBlank()) {
                words = given;
            }
        } catch (DecodeException | ClassCastException notJson) {
            // the body as it is
        }
        return ": " + (words.length() > 300 ? words.substring(0, 300) + "..." : words);
    }

    /** The model's resource name on Vertex AI, as google-genai's {@code t_model} makes it. */
    static String vertexModel(String project, String location, String model) {
        if (model.startsWith("projects/")) {
            return model;
        }
        String path = model.startsWith("publishers/") ? model : model.contains("/")
                ? "publishers/" + model.substring(0, model.indexOf('/')) + "/models/"
                        + model.substring(model.indexOf('/') + 1)
                : "publishers/google/models/" + model;
        return "projects/" + project + "/locations/" + location + "/" + path;
    }

    /** Google's host for a location, when the installation kept Google's address (otherwise its own, as it is). */
    static String vertexHost(String installed, String location) {
        if (!ProviderApis.PUBLIC.get("google_vertex_realtime").equals(installed)) {
            return installed;
        }
        return switch (location) {
            case "global" -> installed;
            case "us", "eu" -> "https://aiplatform." + location + ".rep.googleapis.com";
            default -> "https://" + location + "-aiplatform.googleapis.com";
        };
    }

    private static Double temperature(ModelEndpoint endpoint) {
        return endpoint.settings().get("temperature") instanceof Number n ? n.doubleValue() : null;
    }
}
