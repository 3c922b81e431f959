package dev.voiceagent.adapters.outbound.speech;

import com.google.cloud.texttospeech.v1.StreamingSynthesizeConfig;
import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.UnsupportedSpeechProvider;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.model.VoiceRuntimeProviders;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import io.vertx.grpc.client.GrpcClientOptions;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Singleton;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The speech providers the voice runtime speaks to (domain VoiceRuntimeProviders lists them, and a configuration naming
 * another is refused when saved), each by the adapter of this package that speaks its streaming protocol (a
 * WebSocket, or a streamed request per sentence: each class says which and why), each at the installation's address
 * for it (VOICEAGENT_MODELS_*_BASE_URL, https -> wss) or, where the catalog has a base_url for it, at the one the
 * organization chose (then through the address guard). Any other provider is refused at call start with a
 * reason the run keeps. Every stream outlives a provider's hiccup within the installation's budget
 * ({@code voiceagent.voice.retry.*}, the domain's RetryBudget): a socket that drops is opened again at once, a refused
 * or failed connection and a sentence's failed request are tried again with backoff; only a spent budget fails the
 * stream. (Exposed as itself: the composition root routes the speech ports between this and the simulator's speech.)
 */
@Singleton
@Typed(SpeechProviders.class)
public class SpeechProviders implements SpeechToText, TextToSpeech {

    private final GuardedHttp http;
    private final ProviderApis apis;
    private final Vertx vertx;
    private final Duration timeout;
    private final RetryBudget budget;
    private final GoogleTokens googleTokens;
    /** Google Cloud's gRPC clients (HTTP/2, shared by the calls), by address. */
    private final Map<String, GrpcClient> grpc = new ConcurrentHashMap<>();

    /**
     * @param timeout the time limit of one connection or request
     * @param attempts the most tries of a connection or a sentence's request, the first included
     * @param backoff the wait before the second try (doubled after each failure, with jitter)
     * @param budget how long after the first failure (or a socket's drop) a try may still start
     */
    public SpeechProviders(GuardedHttp http, ProviderApis apis, Vertx vertx,
            @ConfigProperty(name = "voiceagent.models.timeout", defaultValue = "PT10S") Duration timeout,
            @ConfigProperty(name = "voiceagent.voice.retry.attempts", defaultValue = "3") int attempts,
            @ConfigProperty(name = "voiceagent.voice.retry.backoff", defaultValue = "PT0.2S") Duration backoff,
            @ConfigProperty(name = "voiceagent.voice.retry.budget", defaultValue = "PT2S") Duration budget) {
        this.http = http;
        this.apis = apis;
        this.vertx = vertx;
        this.timeout = timeout;
        this.budget = new RetryBudget(attempts, backoff, budget);
        this.googleTokens = new GoogleTokens(http, apis, timeout);
    }

    @Override
    public SpeechToText.Stream open(ModelEndpoint endpoint, AudioFormat format, SpeechToText.Listener listener) {
        if (endpoint.managed() || "openai".equals(endpoint.provider()) || "speaches".equals(endpoint.provider())) {
            return openAiTranscription(endpoint, format, listener);
        }
        return switch (endpoint.provider()) {
            case "deepgram" -> deepgram(endpoint, format, listener);
            case "assemblyai" -> assemblyAi(endpoint, format, listener);
            case "google" -> google(endpoint, format, listener);
            case "speechmatics" -> speechmatics(endpoint, format, listener);
            case "gladia" -> gladia(endpoint, format, listener);
            case "elevenlabs" -> scribe(endpoint, format, listener);
            case "cartesia" -> cartesiaListen(endpoint, format, listener);
            case "sarvam" -> sarvamListen(endpoint, format, listener);
            case "smallest" -> smallestListen(endpoint, format, listener);
            case "azure_speech" -> azureSpeech(endpoint, format, listener);
            case "huggingface" -> throw new UnsupportedSpeechProvider(HUGGINGFACE_STT);
            default -> throw new UnsupportedSpeechProvider("The voice runtime cannot use " + ProviderApis.display(
                    endpoint.provider()) + " for speech-to-text");
        };
    }

    /** Deepgram's live transcription ({@code /v1/listen}), or Flux ({@code /v2/listen}) for a flux model. */
    private SpeechToText.Stream deepgram(ModelEndpoint endpoint, AudioFormat format, SpeechToText.Listener listener) {
        String model = setting(endpoint, "model", endpoint.model(), "nova-3-general");
        boolean flux = model.startsWith("flux");
        String own = ProviderApis.own(endpoint);
        String language = setting(endpoint, "language", null, "multi");
        List<String> keyterms = keyterms(endpoint);
        String url = websocket(own != null ? own : apis.deepgram()) + (flux ? DeepgramListen.fluxQuery(model,
                language, format, keyterms) : DeepgramListen.query(model, language, format, keyterms));
        Map<String, String> headers = Map.of("Authorization", "Token " + key(endpoint, "Deepgram"));
        return new DeepgramListen(() -> http.webSocket(url, headers, timeout, own != null), vertx, budget, format,
                listener, flux);
    }

    /**
     * AssemblyAI's streaming v3 ({@code /v3/ws}, the key as it is in {@code Authorization}) at the installation's
     * address (VOICEAGENT_MODELS_ASSEMBLYAI_BASE_URL, https -> wss): the call's audio as it is, the configured model
     * (the catalog's default {@code u3-rt-pro}: AssemblyAI has none of its own). The configuration's language is not
     * sent: v3 chooses languages by model (Universal-3 Pro and universal-streaming-multilingual hear several).
     */
    private SpeechToText.Stream assemblyAi(ModelEndpoint endpoint, AudioFormat format,
            SpeechToText.Listener listener) {
        String own = ProviderApis.own(endpoint);
        String model = setting(endpoint, "model", endpoint.model(), "u3-rt-pro");
        String url = websocket(own != null ? own : apis.assemblyai()) + AssemblyAiListen.query(model, format,
                keyterms(endpoint));
        Map<String, String> headers = Map.of("Authorization", key(endpoint, "AssemblyAI"));
        return new AssemblyAiListen(() -> http.webSocket(url, headers, timeout, own != null), vertx, budget, format,
                listener, model);
    }

    /**
     * Speechmatics' real-time API ({@code /v2}, the key as a Bearer token) at the installation's address
     * (VOICEAGENT_MODELS_SPEECHMATICS_BASE_URL, https -> wss): the configured operating point (the catalog's model,
     * {@code enhanced}) and language, the call's audio as it is.
     */
    private SpeechToText.Stream speechmatics(ModelEndpoint endpoint, AudioFormat format,
            SpeechToText.Listener listener) {
        String url = websocket(apis.address("speechmatics")) + "/v2";
        Map<String, String> headers = Map.of("Authorization", "Bearer " + key(endpoint, "Speechmatics"));
        JsonObject start = SpeechmaticsListen.start(setting(endpoint, "model", endpoint.model(), "enhanced"),
                setting(endpoint, "language", null, "en"), format, keyterms(endpoint));
        return new SpeechmaticsListen(() -> http.webSocket(url, headers, timeout, false), vertx, budget, format, start,
                listener);
    }

    /**
     * Gladia's live v2 at the installation's address (VOICEAGENT_MODELS_GLADIA_BASE_URL): a session asked for with
     * {@code POST /v2/live} (the key in {@code x-gladia-key}), then the WebSocket URL it answers with (a session token,
     * no key); the configured model ({@code solaria-1}) and language.
     */
    private SpeechToText.Stream gladia(ModelEndpoint endpoint, AudioFormat format, SpeechToText.Listener listener) {
        String init = apis.address("gladia") + "/v2/live";
        Map<String, String> headers = Map.of("x-gladia-key", key(endpoint, "Gladia"));
        String body = GladiaListen.configuration(setting(endpoint, "model", endpoint.model(), "solaria-1"),
                setting(endpoint, "language", null, "en"), format, keyterms(endpoint)).encode();
        return new GladiaListen(() -> Future.fromCompletionStage(http.postJson(init, headers, body, timeout, false)
                .subscribeAsCompletionStage()), url -> http.webSocket(url, Map.of(), timeout, false), vertx, budget,
                format, listener);
    }

    /**
     * ElevenLabs' realtime speech-to-text ({@code /v1/speech-to-text/realtime}, the key in {@code xi-api-key}) at the
     * installation's address (VOICEAGENT_MODELS_ELEVENLABS_BASE_URL, https -> wss) or the base URL the organization
     * chose (a data residency endpoint; then guarded): the configured model ({@code scribe_v2_realtime}) and language.
     */
    private SpeechToText.Stream scribe(ModelEndpoint endpoint, AudioFormat format, SpeechToText.Listener listener) {
        String own = ProviderApis.own(endpoint);
        String url = websocket(own != null ? own : apis.elevenlabs()) + ElevenLabsListen.query(setting(endpoint,
                "model", endpoint.model(), "scribe_v2_realtime"), setting(endpoint, "language", null, "en"), format,
                keyterms(endpoint));
        Map<String, String> headers = Map.of("xi-api-key", key(endpoint, "ElevenLabs"));
        return new ElevenLabsListen(() -> http.webSocket(url, headers, timeout, own != null), vertx, budget, format,
                listener);
    }

    /**
     * Cartesia's realtime transcription ({@code /stt/websocket}, {@code X-API-Key} and {@code Cartesia-Version}, as its
     * voices) at the installation's Cartesia address: the call's audio as it is, the configured model (the catalog's
     * {@code ink-whisper}) and language.
     */
    private SpeechToText.Stream cartesiaListen(ModelEndpoint endpoint, AudioFormat format,
            SpeechToText.Listener listener) {
        String url = websocket(apis.cartesia()) + CartesiaListen.query(setting(endpoint, "model", endpoint.model(),
                "ink-whisper"), setting(endpoint, "language", null, "en"), format, keyterms(endpoint));
        Map<String, String> headers = Map.of("X-API-Key", key(endpoint, "Cartesia"), "Cartesia-Version",
                apis.cartesiaVersion());
        return new CartesiaListen(() -> http.webSocket(url, headers, timeout, false), vertx, budget, format, listener);
    }

    /**
     * Sarvam's streaming transcription ({@code /speech-to-text/ws}, the key in {@code api-subscription-key}) at the
     * installation's address (VOICEAGENT_MODELS_SARVAM_BASE_URL, https -> wss): 16 kHz PCM, the configured model (the
     * catalog's {@code saarika:v2.5}) and language ({@code unknown}: Sarvam detects it).
     */
    private SpeechToText.Stream sarvamListen(ModelEndpoint endpoint, AudioFormat format,
            SpeechToText.Listener listener) {
        String url = websocket(apis.address("sarvam")) + SarvamListen.query(setting(endpoint, "model",
                endpoint.model(), "saarika:v2.5"), setting(endpoint, "language", null, "unknown"));
        Map<String, String> headers = Map.of("api-subscription-key", key(endpoint, "Sarvam"));
        return new SarvamListen(() -> http.webSocket(url, headers, timeout, false), vertx, budget, format, listener);
    }

    /**
     * Smallest AI's Pulse ({@code /waves/v1/stt/live}, the key as a Bearer token) at the installation's address
     * (VOICEAGENT_MODELS_SMALLEST_BASE_URL, https -> wss): the call's audio as it is, the configured model (the
     * catalog's {@code pulse}) and language.
     */
    private SpeechToText.Stream smallestListen(ModelEndpoint endpoint, AudioFormat format,
            SpeechToText.Listener listener) {
        String url = websocket(apis.address("smallest")) + SmallestListen.query(setting(endpoint, "model",
                endpoint.model(), "pulse"), setting(endpoint, "language", null, "en"), format, keyterms(endpoint));
        Map<String, String> headers = Map.of("Authorization", "Bearer " + key(endpoint, "Smallest AI"));
        return new SmallestListen(() -> http.webSocket(url, headers, timeout, false), vertx, budget, format, listener);
    }

    /**
     * Azure Speech's conversation recognition (the Speech SDK's WebSocket protocol, {@code Ocp-Apim-Subscription-Key}
     * and a fresh {@code X-ConnectionId} on each connection) at the installation's address for the configured region
     * (VOICEAGENT_MODELS_AZURE_STT_BASE_URL, {@code {region}} in it the region; https -> wss): the call's audio as it
     * is, the configured language (the catalog's {@code en-US}) and region ({@code eastus}).
     */
    private SpeechToText.Stream azureSpeech(ModelEndpoint endpoint, AudioFormat format,
            SpeechToText.Listener listener) {
        String base;
        try {
            base = apis.azureListen(setting(endpoint, "region", null, "eastus"));
        } catch (IllegalArgumentException e) {
            throw new UnsupportedSpeechProvider(e.getMessage());
        }
        String language = setting(endpoint, "language", null, "en-US");
        String url = websocket(base) + AzureListen.query(language);
        String key = key(endpoint, "Azure Speech");
        return new AzureListen(() -> http.webSocket(url, Map.of("Ocp-Apim-Subscription-Key", key, "X-ConnectionId",
                AzureListen.id()), timeout, false), vertx, budget, format, language, keyterms(endpoint), listener);
    }

    /**
     * Google Cloud Speech-to-Text v1 streaming over gRPC ({@code google.cloud.speech.v1.Speech/StreamingRecognize};
     * v2 would need a project) at the installation's address (VOICEAGENT_MODELS_GOOGLE_STT_BASE_URL; TLS for https,
     * cleartext HTTP/2 for http) or, for the {@code eu} and {@code us} locations, at v1's regional hosts: the call's
     * audio as it is, the configured model (the catalog's {@code latest_long}) and language. It signs in with the
     * configuration's API key ({@code x-goog-api-key}) or, without one, with an access token of the service account
     * its {@code credentials} are the key of ({@code authorization: Bearer}; {@link GoogleTokens}: asked before each
     * gRPC call is opened, the held one while it is fresh; a refused one fails the stream at once). Google's
     * application default credentials are not looked for, as for text-to-speech. The Chirp models and the regions
     * only v2 serves are refused.
     */
    private SpeechToText.Stream google(ModelEndpoint endpoint, AudioFormat format, SpeechToText.Listener listener) {
        String name = "Google Cloud Speech-to-Text";
        Supplier<Future<Map<String, String>>> signIn;
        Object credentials = endpoint.settings().get("credentials");
        if (blank(endpoint.apiKey()) && credentials != null && !(credentials instanceof String text
                && text.isBlank())) {
            GoogleTokens.Account account;
            try {
                account = GoogleTokens.account(credentials);
            } catch (IllegalArgumentException notAnAccount) {
                throw new UnsupportedSpeechProvider(name + ": " + notAnAccount.getMessage());
            }
            signIn = () -> Future.fromCompletionStage(googleTokens.token(account).subscribeAsCompletionStage())
                    .map(token -> Map.of("authorization", "Bearer " + token));
        } else {
            Map<String, String> metadata = Map.of("x-goog-api-key", key(endpoint, name));
            signIn = () -> Future.succeededFuture(metadata);
        }
        String model = setting(endpoint, "model", endpoint.model(), "latest_long");
        if (model.startsWith("chirp")) {
            throw new UnsupportedSpeechProvider(name + " model " + model + " is served by Speech-to-Text v2 only;"
                    + " the voice runtime streams with v1 (latest_long, latest_short, telephony, phone_call...)");
        }
        URI base = URI.create(googleSpeech(setting(endpoint, "location", null, "global")));
        SocketAddress address = grpcAddress(base);
        GrpcClient client = grpcClient(base);
        return new GoogleListen(() -> signIn.get().compose(metadata -> client.request(address,
                GoogleListen.STREAMING_RECOGNIZE).map(call -> {
                    metadata.forEach(call.headers()::set);
                    return call;
                })), vertx, budget, format, listener, GoogleListen.config(model, setting(endpoint, "language", null,
                        "en-US"), format, keyterms(endpoint)), timeout.toMillis(), GoogleListen.ROTATE_MS);
    }

    /** HTTP/2 connections to Google per address (each carries as many calls as Google lets one connection carry). */
    static final int GRPC_CONNECTIONS = 16;

    /** The gRPC client to Google at an address, shared by the calls: TLS (ALPN h2) for https, cleartext h2 for http. */
    private GrpcClient grpcClient(URI base) {
        boolean tls = "https".equals(base.getScheme());
        return grpc.computeIfAbsent(base.toString(), b -> GrpcClient.client(vertx, new GrpcClientOptions()
                .setTransportOptions(new HttpClientOptions().setSsl(tls).setUseAlpn(tls).setForceSni(tls)
                        .setVerifyHost(true).setHttp2ClearTextUpgrade(false).setHttp2MaxPoolSize(GRPC_CONNECTIONS)
                        .setConnectTimeout((int) timeout.toMillis()))));
    }

    private static SocketAddress grpcAddress(URI base) {
        boolean tls = "https".equals(base.getScheme());
        return SocketAddress.inetSocketAddress(base.getPort() > 0 ? base.getPort() : tls ? 443 : 80, base.getHost());
    }

    /**
     * Where Speech-to-Text v1 serves a location: {@code global} at the installation's address, the {@code eu} and
     * {@code us} multi-regions at their own hosts (unless the installation points Google elsewhere); v1 has no other.
     */
    private String googleSpeech(String location) {
        String installed = apis.address("google_stt");
        if ("global".equals(location)) {
            return installed;
        }
        if (!"eu".equals(location) && !"us".equals(location)) {
            throw new UnsupportedSpeechProvider("Google Cloud Speech-to-Text v1 serves the locations global, eu and"
                    + " us, not " + location + " (a Speech-to-Text v2 region)");
        }
        return installed.equals(ProviderApis.PUBLIC.get("google_stt")) ? "https://" + location
                + "-speech.googleapis.com" : installed;
    }

    /** The words a call's speech-to-text is told to expect (its workflow's dictionary). */
    private static List<String> keyterms(ModelEndpoint endpoint) {
        return endpoint.settings().get(ModelEndpoint.KEYTERMS) instanceof List<?> terms
                ? terms.stream().map(String::valueOf).toList() : List.of();
    }

    /**
     * OpenAI realtime transcription ({@code {base}/realtime?intent=transcription}, https -> wss; the organization's
     * OpenAI-compatible base URL, or the installation's managed models): the phone's μ-law as it is, a browser's
     * 16 kHz PCM resampled to the 24 kHz PCM it takes.
     */
    private SpeechToText.Stream openAiTranscription(ModelEndpoint endpoint, AudioFormat format,
            SpeechToText.Listener listener) {
        boolean speaches = "speaches".equals(endpoint.provider());
        String own = selfHosted(endpoint);
        String base = endpoint.managed() ? ProviderApis.trim(endpoint.baseUrl()) : own != null ? own : apis.openai();
        String name = endpoint.managed() ? "The managed speech-to-text" : speaches ? "Speaches" : "OpenAI";
        Map<String, String> headers = speaches && blank(endpoint.apiKey()) ? Map.of()
                : Map.of("Authorization", "Bearer " + key(endpoint, name));
        JsonObject session = OpenAiTranscription.session(setting(endpoint, "model", endpoint.model(),
                "gpt-4o-transcribe"), setting(endpoint, "language", null, null), keyterms(endpoint), format);
        String url = websocket(base) + "/realtime?intent=transcription";
        return new OpenAiTranscription(() -> http.webSocket(url, headers, timeout, own != null), vertx, budget, format,
                name, session, listener);
    }

    @Override
    public TextToSpeech.Stream open(ModelEndpoint endpoint, AudioFormat format, TextToSpeech.Listener listener) {
        if (endpoint.managed() || "openai".equals(endpoint.provider()) || "speaches".equals(endpoint.provider())) {
            return openAiSpeech(endpoint, format, listener);
        }
        return switch (endpoint.provider()) {
            case "elevenlabs" -> elevenLabs(endpoint, format, listener);
            case "cartesia" -> cartesia(endpoint, format, listener);
            case "deepgram" -> aura(endpoint, format, listener);
            case "xai" -> xai(endpoint, format, listener);
            case "sarvam" -> sarvam(endpoint, format, listener);
            case "smallest" -> smallest(endpoint, format, listener);
            case "camb" -> camb(endpoint, format, listener);
            case "rime" -> rime(endpoint, format, listener);
            case "lmnt" -> lmnt(endpoint, format, listener);
            case "inworld" -> inworld(endpoint, format, listener);
            case "azure_speech" -> azure(endpoint, format, listener);
            case "google" -> google(endpoint, format, listener);
            case "minimax" -> miniMax(endpoint, format, listener);
            default -> throw new UnsupportedSpeechProvider("The voice runtime cannot use " + ProviderApis.display(
                    endpoint.provider()) + " for text-to-speech");
        };
    }

    /**
     * Cartesia's WebSocket ({@code /tts/websocket}, {@code X-API-Key} and {@code Cartesia-Version} headers), one
     * context per sentence in the call's own format.
     */
    private TextToSpeech.Stream cartesia(ModelEndpoint endpoint, AudioFormat format, TextToSpeech.Listener listener) {
        String own = ProviderApis.own(endpoint);
        String url = websocket(own != null ? own : apis.cartesia()) + "/tts/websocket";
        Map<String, String> headers = Map.of("X-API-Key", key(endpoint, "Cartesia"), "Cartesia-Version",
                apis.cartesiaVersion());
        CartesiaStream.Voice voice = new CartesiaStream.Voice(setting(endpoint, "model", endpoint.model(),
                "sonic-3.5"), setting(endpoint, "voice", null, "3faa81ae-d3d8-4ab1-9e44-e50e46d33c30"),
                setting(endpoint, "language", null, "en"), number(endpoint, "speed"), number(endpoint, "volume"));
        return new CartesiaStream(() -> http.webSocket(url, headers, timeout, own != null), vertx, budget, format, voice,
                listener);
    }

    /**
     * Rime's JSON WebSocket ({@code /ws3}, {@code Authorization: Bearer}) at the installation's address
     * (VOICEAGENT_MODELS_RIME_BASE_URL, https -> wss; the catalog has no base_url for Rime): the configured voice,
     * model, language and speed, the call's own format.
     */
    private TextToSpeech.Stream rime(ModelEndpoint endpoint, AudioFormat format, TextToSpeech.Listener listener) {
        String url = websocket(apis.address("rime")) + "/ws3" + RimeStream.query(setting(endpoint, "model",
                endpoint.model(), "arcana"), setting(endpoint, "voice", null, "celeste"), setting(endpoint,
                "language", null, "en"), number(endpoint, "speed"), format);
        Map<String, String> headers = Map.of("Authorization", "Bearer " + key(endpoint, "Rime"));
        return new RimeStream(() -> http.webSocket(url, headers, timeout, false), vertx, budget, format, listener);
    }

    /**
     * LMNT's speech session ({@code /v1/ai/speech/stream}: no header, the key goes in the session's first message) at
     * the installation's address (VOICEAGENT_MODELS_LMNT_BASE_URL, https -> wss; the catalog has no base_url for
     * LMNT): the configured voice and language, raw PCM at the call's rate (LMNT makes 8, 16 and 24 kHz).
     */
    private TextToSpeech.Stream lmnt(ModelEndpoint endpoint, AudioFormat format, TextToSpeech.Listener listener) {
        if (!List.of(8_000, 16_000, 24_000).contains(format.sampleRate())) {
            throw new UnsupportedSpeechProvider("LMNT speaks at 8, 16 or 24 kHz, not " + format.sampleRate() + " Hz");
        }
        String url = websocket(apis.address("lmnt")) + "/v1/ai/speech/stream";
        JsonObject init = LmntStream.init(key(endpoint, "LMNT"), setting(endpoint, "voice", null, "lily"),
                setting(endpoint, "language", null, "en"), format);
        return new LmntStream(() -> http.webSocket(url, Map.of(), timeout, false), vertx, budget, format, init,
                listener);
    }

    /**
     * Inworld's TTS WebSocket ({@code /tts/v1/voice:streamBidirectional}, {@code Authorization: Basic} with the key as
     * Inworld issues it, already Base64) at the installation's address (VOICEAGENT_MODELS_INWORLD_BASE_URL, https ->
     * wss; the catalog has no base_url for Inworld): one context per sentence with the configured model, voice,
     * language, speed and delivery mode, in the call's own format.
     */
    private TextToSpeech.Stream inworld(ModelEndpoint endpoint, AudioFormat format, TextToSpeech.Listener listener) {
        String url = websocket(apis.address("inworld")) + "/tts/v1/voice:streamBidirectional";
        Map<String, String> headers = Map.of("Authorization", "Basic " + key(endpoint, "Inworld"));
        JsonObject create = InworldStream.create(setting(endpoint, "model", endpoint.model(), "inworld-tts-2"),
                setting(endpoint, "voice", null, "Ashley"), setting(endpoint, "language", null, "en-US"),
                number(endpoint, "speed"), setting(endpoint, "delivery_mode", null, "BALANCED"), format);
        return new InworldStream(() -> http.webSocket(url, headers, timeout, false), vertx, budget, format, create,
                listener);
    }

    private static Double number(ModelEndpoint endpoint, String name) {
        return endpoint.settings().get(name) instanceof Number n ? n.doubleValue() : null;
    }

    private TextToSpeech.Stream elevenLabs(ModelEndpoint endpoint, AudioFormat format, TextToSpeech.Listener listener) {
        String own = ProviderApis.own(endpoint);
        String voice = setting(endpoint, "voice", null, "21m00Tcm4TlvDq8ikWAM");
        String url = websocket(own != null ? own : apis.elevenlabs()) + "/v1/text-to-speech/"
                + URLEncoder.encode(voice, StandardCharsets.UTF_8) + "/multi-stream-input?model_id="
                + URLEncoder.encode(setting(endpoint, "model", endpoint.model(), "eleven_flash_v2_5"),
                        StandardCharsets.UTF_8)
                + "&output_format=" + ElevenLabsStream.output(format) + "&inactivity_timeout=180&sync_alignment=true";
        String key = key(endpoint, "ElevenLabs");
        return new ElevenLabsStream(() -> http.webSocket(url, Map.of("xi-api-key", key), timeout, own != null),
                vertx, budget, format, voiceSettings(endpoint), key, listener);
    }

    /**
     * ElevenLabs' voice settings: its documented defaults (stability 0.5, similarity boost 0.75), what the
     * configuration sets of them, and its speed (refused outside ElevenLabs' 0.7-1.2 when saved; one stored before
     * that check is kept within it).
     */
    static JsonObject voiceSettings(ModelEndpoint endpoint) {
        JsonObject settings = new JsonObject().put("stability", 0.5).put("similarity_boost", 0.75);
        for (String name : new String[] {"stability", "similarity_boost", "style"}) {
            if (endpoint.settings().get(name) instanceof Number n) {
                settings.put(name, n.doubleValue());
            }
        }
        if (endpoint.settings().get("use_speaker_boost") instanceof Boolean boost) {
            settings.put("use_speaker_boost", boost);
        }
        if (endpoint.settings().get("speed") instanceof Number speed) {
            settings.put("speed", Math.max(VoiceRuntimeProviders.ELEVENLABS_SPEED_MIN,
                    Math.min(VoiceRuntimeProviders.ELEVENLABS_SPEED_MAX, speed.doubleValue())));
        }
        return settings;
    }

    /**
     * Deepgram Aura: {@code POST /v1/speak} per sentence in the call's own format (mulaw 8 kHz on the phone, linear16
     * otherwise; no container), so nothing is transcoded. (Its WebSocket allows 20 Flushes a minute: one per sentence
     * would run out on a talkative call.)
     */
    private TextToSpeech.Stream aura(ModelEndpoint endpoint, AudioFormat format, TextToSpeech.Listener listener) {
        String own = ProviderApis.own(endpoint);
        String voice = setting(endpoint, "voice", endpoint.model(), "aura-2-helena-en");
        String url = (own != null ? own : apis.deepgram()) + "/v1/speak?model="
                + URLEncoder.encode(voice, StandardCharsets.UTF_8) + "&encoding="
                + (format.encoding() == AudioFormat.Encoding.MULAW ? "mulaw" : "linear16") + "&sample_rate="
                + format.sampleRate() + "&container=none";
        Map<String, String> headers = Map.of("Authorization", "Token " + key(endpoint, "Deepgram"),
                "Accept", "audio/*");
        return new SpeechRequests(http, vertx, budget, "Deepgram", text -> new SpeechRequests.Request(url, headers,
                new JsonObject().put("text", text).encode()),
                () -> SpeechRequests.Conversion.none(format), own != null, timeout, listener);
    }

    /**
     * xAI's {@code POST /v1/tts} per sentence (docs.x.ai, Voice: "Text to speech - REST"; the key as a Bearer token) at
     * the installation's address (VOICEAGENT_MODELS_XAI_BASE_URL, https://api.x.ai/v1 by default): the voice and the
     * language (required by xAI; {@code auto} detects it), the answer streamed in the call's own format
     * ({@code output_format}: codec {@code mulaw} at 8 kHz on the phone, raw 16-bit {@code pcm} at 16 kHz in a
     * browser), so nothing is transcoded. Not xAI's WebSocket ({@code wss://api.x.ai/v1/tts}, as pipecat's
     * services/xai/tts.py speaks it): it carries one utterance at a time with no id on its {@code audio.delta}s, so
     * sentences cannot be asked ahead and a barge-in could only clear them all ({@code text.clear}); a request per
     * sentence is reset alone.
     */
    private TextToSpeech.Stream xai(ModelEndpoint endpoint, AudioFormat format, TextToSpeech.Listener listener) {
        String url = apis.address("xai") + "/tts";
        Map<String, String> headers = Map.of("Authorization", "Bearer " + key(endpoint, "xAI"), "Accept", "audio/*");
        JsonObject output = new JsonObject().put("codec", format.encoding() == AudioFormat.Encoding.MULAW ? "mulaw"
                : "pcm").put("sample_rate", format.sampleRate());
        String voice = setting(endpoint, "voice", null, "eve");
        String language = setting(endpoint, "language", null, "en");
        return new SpeechRequests(http, vertx, budget, "xAI", text -> new SpeechRequests.Request(url, headers,
                new JsonObject().put("text", text).put("voice_id", voice).put("language", language)
                        .put("output_format", output.copy()).encode()),
                () -> SpeechRequests.Conversion.none(format), false, timeout, listener);
    }

    /**
     * Sarvam's streaming WebSocket ({@code /text-to-speech/ws?model=...&send_completion_event=true}, the key in
     * {@code api-subscription-key}) at the installation's address (VOICEAGENT_MODELS_SARVAM_BASE_URL, https -> wss):
     * the model (the catalog's default {@code bulbul:v2}), the speaker, the language, the speed as Sarvam's pace, the
     * call's own format ({@link SarvamStream}).
     */
    private TextToSpeech.Stream sarvam(ModelEndpoint endpoint, AudioFormat format, TextToSpeech.Listener listener) {
        String url = websocket(apis.address("sarvam")) + "/text-to-speech/ws?model="
                + URLEncoder.encode(setting(endpoint, "model", endpoint.model(), "bulbul:v2"), StandardCharsets.UTF_8)
                + "&send_completion_event=true";
        Map<String, String> headers = Map.of("api-subscription-key", key(endpoint, "Sarvam"));
        JsonObject config = SarvamStream.config(setting(endpoint, "voice", null, "anushka"),
                setting(endpoint, "language", null, "hi-IN"), number(endpoint, "speed"), format);
        return new SarvamStream(() -> http.webSocket(url, headers, timeout, false), vertx, budget, config,
                SarvamStream.KEEP_ALIVE, listener);
    }

    /**
     * Smallest AI's Waves streamed speech ({@code POST /waves/v1/tts/live}, server-sent events; the key as a Bearer
     * token) per sentence at the installation's address (VOICEAGENT_MODELS_SMALLEST_BASE_URL): the model (the
     * catalog's {@code lightning_v3.1}), the voice, the language, the speed when set, raw 16-bit PCM at the call's own
     * rate (8 or 16 kHz), encoded to μ-law on the phone ({@link SmallestEvents}). Not its WebSocket on the same path:
     * its {@code complete} comes seconds after a request's last audio ({@code complete_backoff_ms}, 4 s by default) and
     * it has no message that stops one request, where a request per sentence ends with its stream and is reset alone.
     */
    private TextToSpeech.Stream smallest(ModelEndpoint endpoint, AudioFormat format, TextToSpeech.Listener listener) {
        String url = apis.address("smallest") + "/waves/v1/tts/live";
        Map<String, String> headers = Map.of("Authorization", "Bearer " + key(endpoint, "Smallest AI"), "Accept",
                "text/event-stream");
        JsonObject voice = new JsonObject().put("voice_id", setting(endpoint, "voice", null, "sophia"))
                .put("model", setting(endpoint, "model", endpoint.model(), "lightning_v3.1"))
                .put("language", setting(endpoint, "language", null, "en")).put("sample_rate", format.sampleRate())
                .put("output_format", "pcm");
        Double speed = number(endpoint, "speed");
        if (speed != null) {
            voice.put("speed", speed);
        }
        return new SpeechRequests(http, vertx, budget, "Smallest AI", text -> new SpeechRequests.Request(url,
                headers, voice.copy().put("text", text).encode()),
                () -> SpeechRequests.Conversion.fromPcm(format.sampleRate(), format).carried(new SmallestEvents()),
                false, timeout, listener);
    }

    /**
     * The rate of the raw PCM each Camb.ai model streams (pipecat's services/camb/tts.py, Camb.ai's model notes):
     * what it is resampled from.
     */
    static final Map<String, Integer> CAMB_RATES = Map.of("mars-flash", 22_050, "mars-instruct", 22_050,
            "mars-pro", 48_000);

    /**
     * Camb.ai's streamed speech ({@code POST /apis/tts-stream}, the key in {@code x-api-key}; the Camb.ai SDK's
     * text_to_speech.tts, as pipecat's services/camb/tts.py calls it) per sentence at the installation's address
     * (VOICEAGENT_MODELS_CAMB_BASE_URL, the SDK's base URL: https://client.camb.ai/apis): the model as its
     * {@code speech_model}, the voice (a number), the language, raw 16-bit PCM (output format {@code pcm_s16le}) at
     * the model's own rate ({@link #CAMB_RATES}; Camb.ai offers no μ-law), resampled and encoded to the
     * call's format as it comes. A model whose rate is not known here, or a voice that is not a number, is refused at
     * call start with the reason.
     */
    private TextToSpeech.Stream camb(ModelEndpoint endpoint, AudioFormat format, TextToSpeech.Listener listener) {
        String model = setting(endpoint, "model", endpoint.model(), "mars-flash");
        Integer rate = CAMB_RATES.get(model);
        if (rate == null) {
            throw new UnsupportedSpeechProvider("The voice runtime does not know the audio rate of Camb.ai's " + model
                    + " (it knows mars-flash, mars-instruct and mars-pro)");
        }
        String voice = setting(endpoint, "voice", null, "147320").strip();
        if (!voice.matches("\\d{1,18}")) {
            throw new UnsupportedSpeechProvider("A Camb.ai voice is a number (a voice id), not " + voice);
        }
        String url = apis.address("camb") + "/tts-stream";
        Map<String, String> headers = Map.of("x-api-key", key(endpoint, "Camb.ai"), "Accept", "audio/*");
        JsonObject request = new JsonObject().put("voice_id", Long.parseLong(voice))
                .put("language", setting(endpoint, "language", null, "en-us")).put("speech_model", model)
                .put("output_configuration", new JsonObject().put("format", "pcm_s16le"));
        return new SpeechRequests(http, vertx, budget, "Camb.ai", text -> new SpeechRequests.Request(url, headers,
                request.copy().put("text", text).encode()),
                () -> SpeechRequests.Conversion.fromPcm(rate, format), false, timeout, listener);
    }

    /**
     * Azure Speech's REST synthesis per sentence ({@link AzureSpeech}) at the installation's address for the configured
     * region (VOICEAGENT_MODELS_AZURE_SPEECH_BASE_URL, its {@code {region}} filled in; by default
     * https://{region}.tts.speech.microsoft.com): SSML in, the call's own format out.
     */
    private TextToSpeech.Stream azure(ModelEndpoint endpoint, AudioFormat format, TextToSpeech.Listener listener) {
        String base;
        try {
            base = apis.azureSpeech(setting(endpoint, "region", null, "eastus"));
        } catch (IllegalArgumentException notARegion) {
            throw new UnsupportedSpeechProvider("Azure Speech: " + notARegion.getMessage());
        }
        Map<String, String> headers = AzureSpeech.headers(key(endpoint, "Azure Speech"), format);
        String voice = setting(endpoint, "voice", null, "en-US-AriaNeural");
        String language = setting(endpoint, "language", null, "en-US");
        Double speed = number(endpoint, "speed");
        return new SpeechRequests(http, vertx, budget, "Azure Speech", text -> new SpeechRequests.Request(
                base + "/cognitiveservices/v1", headers, AzureSpeech.ssml(text, voice, language, speed)),
                () -> AzureSpeech.decoder(format), false, timeout, listener);
    }

    /**
     * Google Cloud Text-to-Speech's REST synthesis per sentence ({@link GoogleSpeech}) at the installation's address
     * (VOICEAGENT_MODELS_GOOGLE_TTS_BASE_URL; the configured location's regional endpoint when it is Google's own),
     * with the configuration's API key ({@code x-goog-api-key}) or, without one, an access token of the service account
     * its {@code credentials} are the key of ({@link GoogleTokens}: a bearer token asked for before a sentence when
     * none is held). Google's application default credentials are not looked for: a tenant's call never runs as the
     * installation's own account. A Chirp 3 HD voice (the catalog's default; a name with {@code Chirp3-HD} or
     * {@code Chirp-HD}) is streamed over gRPC instead ({@link #googleStreaming}): Google's streaming synthesis serves
     * those voices only, so every other voice keeps the REST synthesis.
     */
    private TextToSpeech.Stream google(ModelEndpoint endpoint, AudioFormat format, TextToSpeech.Listener listener) {
        String base;
        try {
            base = apis.googleTts(setting(endpoint, "location", null, null));
        } catch (IllegalArgumentException notALocation) {
            throw new UnsupportedSpeechProvider("Google Cloud: " + notALocation.getMessage());
        }
        String url = base + "/v1/text:synthesize";
        String voice = setting(endpoint, "voice", null, "en-US-Chirp3-HD-Charon");
        String language = setting(endpoint, "language", null, "en-US");
        Double speed = number(endpoint, "speed");
        if (GoogleStreamingSpeech.streams(voice)) {
            return googleStreaming(endpoint, base, GoogleStreamingSpeech.config(voice, language, speed, format),
                    listener);
        }
        if (!blank(endpoint.apiKey())) {
            Map<String, String> headers = Map.of("x-goog-api-key", endpoint.apiKey(), "Accept", "application/json");
            return new SpeechRequests(http, vertx, budget, "Google Cloud", text -> new SpeechRequests.Request(url,
                    headers, GoogleSpeech.body(text, voice, language, speed, format)),
                    () -> GoogleSpeech.decoder(format), false, timeout, listener);
        }
        Object credentials = endpoint.settings().get("credentials");
        if (credentials == null || credentials instanceof String text && text.isBlank()) {
            throw new UnsupportedSpeechProvider("Google Cloud text-to-speech needs an API key or a service account's"
                    + " credentials (its JSON key) in the model configuration");
        }
        GoogleTokens.Account account;
        try {
            account = GoogleTokens.account(credentials);
        } catch (IllegalArgumentException notAnAccount) {
            throw new UnsupportedSpeechProvider("Google Cloud: " + notAnAccount.getMessage());
        }
        return SpeechRequests.deferred(http, vertx, budget, "Google Cloud", text -> googleTokens.token(account)
                .map(token -> new SpeechRequests.Request(url, Map.of("Authorization", "Bearer " + token, "Accept",
                        "application/json"), GoogleSpeech.body(text, voice, language, speed, format))),
                () -> GoogleSpeech.decoder(format), false, timeout, listener);
    }

    /**
     * Google Cloud Text-to-Speech's streaming synthesis for a Chirp 3 HD voice, one gRPC
     * {@code google.cloud.texttospeech.v1.TextToSpeech/StreamingSynthesize} call per sentence
     * ({@link GoogleStreamingSpeech}), at the same address as the REST synthesis (TLS for https, cleartext HTTP/2 for
     * http), on a gRPC client shared per address; signed in as Speech-to-Text is ({@code x-goog-api-key}, or a service
     * account's token as {@code authorization: Bearer}, asked for before each call).
     */
    private TextToSpeech.Stream googleStreaming(ModelEndpoint endpoint, String base, StreamingSynthesizeConfig config,
            TextToSpeech.Listener listener) {
        Supplier<Future<Map<String, String>>> signIn;
        Object credentials = endpoint.settings().get("credentials");
        if (!blank(endpoint.apiKey())) {
            Map<String, String> metadata = Map.of("x-goog-api-key", endpoint.apiKey());
            signIn = () -> Future.succeededFuture(metadata);
        } else if (credentials == null || credentials instanceof String text && text.isBlank()) {
            throw new UnsupportedSpeechProvider("Google Cloud text-to-speech needs an API key or a service account's"
                    + " credentials (its JSON key) in the model configuration");
        } else {
            GoogleTokens.Account account;
            try {
                account = GoogleTokens.account(credentials);
            } catch (IllegalArgumentException notAnAccount) {
                throw new UnsupportedSpeechProvider("Google Cloud: " + notAnAccount.getMessage());
            }
            signIn = () -> Future.fromCompletionStage(googleTokens.token(account).subscribeAsCompletionStage())
                    .map(token -> Map.of("authorization", "Bearer " + token));
        }
        GrpcClient client = grpcClient(URI.create(base));
        SocketAddress address = grpcAddress(URI.create(base));
        return new GoogleStreamingSpeech(() -> signIn.get().compose(metadata -> client.request(address,
                GoogleStreamingSpeech.STREAMING_SYNTHESIZE).map(call -> {
                    metadata.forEach(call.headers()::set);
                    return call;
                })), vertx, budget, config, timeout.toMillis(), listener);
    }

    /**
     * MiniMax's T2A v2 streamed per sentence ({@link MiniMaxSpeech}) at the base URL the organization chose (guarded) or
     * the installation's address (VOICEAGENT_MODELS_MINIMAX_BASE_URL, by default https://api.minimax.io/v1), with the
     * configuration's group id when it has one: PCM at the call's rate, μ-law encoded here for the phone.
     */
    private TextToSpeech.Stream miniMax(ModelEndpoint endpoint, AudioFormat format, TextToSpeech.Listener listener) {
        String own = ProviderApis.own(endpoint);
        String url = MiniMaxSpeech.url(own != null ? own : apis.address("minimax"), setting(endpoint, "group_id", null,
                null));
        Map<String, String> headers = Map.of("Authorization", "Bearer " + key(endpoint, "MiniMax"));
        String model = setting(endpoint, "model", endpoint.model(), "speech-2.8-hd");
        String voice = setting(endpoint, "voice", null, "English_Graceful_Lady");
        Double speed = number(endpoint, "speed");
        int rate = MiniMaxSpeech.rate(format);
        return new SpeechRequests(http, vertx, budget, "MiniMax", text -> new SpeechRequests.Request(url, headers,
                MiniMaxSpeech.body(text, model, voice, speed, rate)), () -> MiniMaxSpeech.decoder(format), own != null,
                timeout, listener);
    }

    /**
     * OpenAI's {@code POST /audio/speech} (any OpenAI-compatible base URL: Speaches and Kokoro-FastAPI at theirs, and
     * the installation's managed voice):
     * raw 24 kHz 16-bit PCM streamed, resampled and encoded to the call's format as it comes.
     */
    private TextToSpeech.Stream openAiSpeech(ModelEndpoint endpoint, AudioFormat format,
            TextToSpeech.Listener listener) {
        boolean speaches = "speaches".equals(endpoint.provider());
        String own = selfHosted(endpoint);
        String base = endpoint.managed() ? ProviderApis.trim(endpoint.baseUrl()) : own != null ? own : apis.openai();
        Map<String, String> headers = speaches && blank(endpoint.apiKey())
                ? Map.of("Accept", "audio/*") // a self-hosted server usually takes no key
                : Map.of("Authorization", "Bearer " + key(endpoint, endpoint.managed() ? "The managed voice"
                        : ProviderApis.display(endpoint.provider())), "Accept", "audio/*");
        String model = setting(endpoint, "model", endpoint.model(), "gpt-4o-mini-tts");
        String voice = setting(endpoint, "voice", null, "alloy");
        Object speed = endpoint.settings().get("speed");
        return new SpeechRequests(http, vertx, budget, ProviderApis.display(endpoint.provider()), text -> {
            JsonObject body = new JsonObject().put("model", model)
                    .put("input", text).put("voice", voice).put("response_format", "pcm");
            if (speed instanceof Number n) {
                body.put("speed", n.doubleValue());
            }
            return new SpeechRequests.Request(base + "/audio/speech", headers, body.encode());
        }, () -> SpeechRequests.Conversion.fromPcm(OPENAI_PCM_RATE, format), own != null, timeout, listener);
    }

    /**
     * The base URL the organization chose, or null for the installation's; a self-hosted server (Speaches) is wherever
     * the tenant says, its catalog default included (localhost): always guarded, and required.
     */
    private static String selfHosted(ModelEndpoint endpoint) {
        if (!"speaches".equals(endpoint.provider())) {
            return ProviderApis.own(endpoint);
        }
        if (blank(endpoint.baseUrl())) {
            throw new UnsupportedSpeechProvider("Speaches needs the base_url of its server in the model configuration");
        }
        return ProviderApis.trim(endpoint.baseUrl().strip());
    }

    /**
     * Why a call cannot listen with Hugging Face: its Inference Providers' automatic-speech-recognition task takes a
     * whole recording in one request and answers one text (huggingface.co/docs/inference-providers/tasks/
     * automatic-speech-recognition); it has no stream to send a caller's audio to as it comes.
     */
    static final String HUGGINGFACE_STT = "Hugging Face cannot listen on a call: "
            + VoiceRuntimeProviders.CANNOT_STREAM.get(ModelService.STT).get("huggingface");

    /** OpenAI's {@code pcm} speech: 24 kHz, 16-bit signed little-endian, mono. */
    static final int OPENAI_PCM_RATE = 24_000;

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    static String key(ModelEndpoint endpoint, String provider) {
        if (blank(endpoint.apiKey())) {
            throw new UnsupportedSpeechProvider(provider + " has no API key in the model configuration");
        }
        return endpoint.apiKey();
    }

    static String setting(ModelEndpoint endpoint, String name, String given, String fallback) {
        Object value = endpoint.settings().get(name);
        String chosen = value instanceof String s && !s.isBlank() ? s : given;
        return chosen == null || chosen.isBlank() ? fallback : chosen;
    }

    static String websocket(String base) {
        return ProviderApis.websocket(base);
    }
}
