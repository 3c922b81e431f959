package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.UnsupportedSpeechProvider;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.model.VoiceRuntimeProviders;
import dev.voiceagent.domain.outbound.RetryBudget;
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
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The speech providers the voice runtime speaks to (domain VoiceRuntimeProviders lists them, and a configuration naming
 * another is refused when saved): Deepgram live, AssemblyAI streaming, Google Cloud's streaming
 * recognition (gRPC) and OpenAI realtime transcription; ElevenLabs'
 * multi-context and Cartesia's WebSockets,
 * Deepgram Aura and OpenAI-compatible speech per sentence, each at the installation's address for it (VOICEAGENT_MODELS_*_BASE_URL, https -> wss) or at the base URL
 * the organization chose (then through the address guard). Any other provider is refused at call start with a reason
 * the run keeps. Every stream outlives a provider's hiccup within the installation's budget
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
    }

    @Override
    public SpeechToText.Stream open(ModelEndpoint endpoint, AudioFormat format, SpeechToText.Listener listener) {
        if (endpoint.managed() || "openai".equals(endpoint.provider()) || "speaches".equals(endpoint.provider())) {
            return openAiTranscription(endpoint, format, listener);
        }
        if ("assemblyai".equals(endpoint.provider())) {
            return assemblyAi(endpoint, format, listener);
        }
        if ("google".equals(endpoint.provider())) {
            return google(endpoint, format, listener);
        }
        if (!"deepgram".equals(endpoint.provider())) {
            throw new UnsupportedSpeechProvider("The voice runtime cannot use " + ProviderApis.display(
                    endpoint.provider()) + " for speech-to-text yet (Deepgram, AssemblyAI, Google Cloud and"
                    + " OpenAI realtime transcription can)");
        }
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
     * Google Cloud Speech-to-Text v1 streaming over gRPC ({@code google.cloud.speech.v1.Speech/StreamingRecognize},
     * the key as {@code x-goog-api-key}; v2 would need a project and OAuth) at the installation's address
     * (VOICEAGENT_MODELS_GOOGLE_STT_BASE_URL; TLS for https, cleartext HTTP/2 for http) or, for the {@code eu} and
     * {@code us} locations, at v1's regional hosts: the call's audio as it is, the configured model (the catalog's
     * {@code latest_long}) and language. Only an API key signs in: service-account credentials alone are refused, as
     * are the Chirp models and the regions only v2 serves.
     */
    private SpeechToText.Stream google(ModelEndpoint endpoint, AudioFormat format, SpeechToText.Listener listener) {
        String name = "Google Cloud Speech-to-Text";
        if (blank(endpoint.apiKey()) && endpoint.settings().get("credentials") instanceof String credentials
                && !credentials.isBlank()) {
            throw new UnsupportedSpeechProvider(name + " needs an API key in the model configuration: the voice"
                    + " runtime does not sign in with a service account's credentials yet");
        }
        String key = key(endpoint, name);
        String model = setting(endpoint, "model", endpoint.model(), "latest_long");
        if (model.startsWith("chirp")) {
            throw new UnsupportedSpeechProvider(name + " model " + model + " is served by Speech-to-Text v2 only;"
                    + " the voice runtime streams with v1 (latest_long, latest_short, telephony, phone_call...)");
        }
        URI base = URI.create(googleSpeech(setting(endpoint, "location", null, "global")));
        boolean tls = "https".equals(base.getScheme());
        SocketAddress address = SocketAddress.inetSocketAddress(base.getPort() > 0 ? base.getPort() : tls ? 443 : 80,
                base.getHost());
        GrpcClient client = grpc.computeIfAbsent(base.toString(), b -> GrpcClient.client(vertx, new GrpcClientOptions()
                .setTransportOptions(new HttpClientOptions().setSsl(tls).setUseAlpn(tls).setForceSni(tls)
                        .setVerifyHost(true).setHttp2ClearTextUpgrade(false).setHttp2MaxPoolSize(GRPC_CONNECTIONS)
                        .setConnectTimeout((int) timeout.toMillis()))));
        return new GoogleListen(() -> client.request(address, GoogleListen.STREAMING_RECOGNIZE).map(call -> {
            call.headers().set("x-goog-api-key", key);
            return call;
        }), vertx, budget, format, listener, GoogleListen.config(model, setting(endpoint, "language", null, "en-US"),
                format, keyterms(endpoint)), timeout.toMillis(), GoogleListen.ROTATE_MS);
    }

    /** HTTP/2 connections to Google per address (each carries as many calls as Google lets one connection carry). */
    static final int GRPC_CONNECTIONS = 16;

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
            default -> throw new UnsupportedSpeechProvider("The voice runtime cannot use " + ProviderApis.display(
                    endpoint.provider()) + " for text-to-speech yet (ElevenLabs, Cartesia, Deepgram Aura, OpenAI and"
                    + " OpenAI-compatible voices can)");
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

    /** https -> wss, http -> ws: one setting points a provider's REST and WebSocket endpoints alike. */
    static String websocket(String base) {
        String url = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        return url.startsWith("https://") ? "wss://" + url.substring(8)
                : url.startsWith("http://") ? "ws://" + url.substring(7) : url;
    }
}
