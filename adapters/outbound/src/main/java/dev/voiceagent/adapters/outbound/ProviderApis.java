package dev.voiceagent.adapters.outbound;

import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.domain.model.ModelCatalog;
import dev.voiceagent.domain.model.ModelField;
import jakarta.inject.Singleton;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The providers' public API addresses (an installation or a test may point them elsewhere) and the
 * OpenAI-compatible ones: the providers whose keys are checked with GET {base_url}/models. A singleton,
 * not a client proxy: its fields are read directly.
 */
@Singleton
public class ProviderApis {

    private static final String GOOGLE_TTS = "https://texttospeech.googleapis.com";
    /** An Azure region's or a Google Cloud location's name, as it goes into a host name. */
    private static final Pattern REGION = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");

    /** OpenAI-compatible providers without a base_url field of their own. */
    static final Map<String, String> OPENAI_COMPATIBLE = Map.of(
            "groq", "https://api.groq.com/openai/v1",
            "xai", "https://api.x.ai/v1");

    /**
     * The public addresses of the speech providers reached through {@link #address(String)}, by catalog id (REST and
     * WebSocket alike: https -> wss). Each adapter documents which of its provider's endpoints hangs off it. Azure
     * Speech's holds {@code {region}}, filled in per configuration ({@link #azureSpeech(String)}). Google Cloud's
     * text-to-speech has an id of its own ({@code google} is the Gemini API's, {@code voiceagent.models.google-base-url}),
     * and so has Rime's REST host ({@code rime_voices}: its voice catalog; its speech is on another host).
     */
    public static final Map<String, String> PUBLIC = Map.ofEntries(
            Map.entry("assemblyai", "https://streaming.assemblyai.com"),
            Map.entry("grok_realtime", "https://api.x.ai/v1"),
            Map.entry("xai", "https://api.x.ai/v1"),
            Map.entry("sarvam", "https://api.sarvam.ai"),
            Map.entry("azure_speech", "https://{region}.tts.speech.microsoft.com"),
            Map.entry("google_tts", GOOGLE_TTS),
            Map.entry("rime_voices", "https://users.rime.ai"),
            Map.entry("minimax", "https://api.minimax.io/v1"),
            Map.entry("smallest", "https://api.smallest.ai"),
            Map.entry("camb", "https://client.camb.ai/apis"),
            Map.entry("rime", "https://users-ws.rime.ai"),
            Map.entry("lmnt", "https://api.lmnt.com"),
            Map.entry("inworld", "https://api.inworld.ai"),
            Map.entry("speechmatics", "https://eu2.rt.speechmatics.com"),
            // Speechmatics' batch API: only its key check (the real-time host has no REST endpoint)
            Map.entry("speechmatics_batch", "https://eu1.asr.api.speechmatics.com"),
            Map.entry("gladia", "https://api.gladia.io"),
            Map.entry("azure_stt", "https://{region}.stt.speech.microsoft.com"),
            Map.entry("google_realtime", "https://generativelanguage.googleapis.com"),
            Map.entry("google_vertex_realtime", "https://aiplatform.googleapis.com"),
            Map.entry("google_oauth", "https://oauth2.googleapis.com"),
            Map.entry("ultravox_realtime", "https://api.ultravox.ai"),
            Map.entry("google_stt", "https://speech.googleapis.com"));

    private final Map<String, String> addresses = new ConcurrentHashMap<>();

    final String openai;
    final String google;
    final String azureApiVersion;
    final String elevenlabs;
    final String deepgram;
    final String cartesia;
    final String cartesiaVersion;

    public ProviderApis(
            @ConfigProperty(name = "voiceagent.models.openai-base-url", defaultValue = "https://api.openai.com/v1") String openai,
            @ConfigProperty(name = "voiceagent.models.google-base-url",
                    defaultValue = "https://generativelanguage.googleapis.com/v1beta/openai") String google,
            @ConfigProperty(name = "voiceagent.models.azure-api-version", defaultValue = "2024-10-21") String azureApiVersion,
            @ConfigProperty(name = "voiceagent.models.elevenlabs-base-url", defaultValue = "https://api.elevenlabs.io") String elevenlabs,
            @ConfigProperty(name = "voiceagent.models.deepgram-base-url", defaultValue = "https://api.deepgram.com") String deepgram,
            @ConfigProperty(name = "voiceagent.models.cartesia-base-url", defaultValue = "https://api.cartesia.ai") String cartesia,
            @ConfigProperty(name = "voiceagent.models.cartesia-version", defaultValue = "2025-04-16") String cartesiaVersion) {
        this.openai = trim(openai);
        this.google = trim(google);
        this.azureApiVersion = azureApiVersion;
        this.elevenlabs = trim(elevenlabs);
        this.deepgram = trim(deepgram);
        this.cartesia = trim(cartesia);
        this.cartesiaVersion = cartesiaVersion;
    }

    /** The installation's Deepgram address (REST and WebSocket alike: https -> wss). */
    public String deepgram() {
        return deepgram;
    }

    /** The installation's OpenAI address. */
    public String openai() {
        return openai;
    }

    /** The installation's Cartesia address (REST and WebSocket alike), and the API version it is spoken to at. */
    public String cartesia() {
        return cartesia;
    }

    public String cartesiaVersion() {
        return cartesiaVersion;
    }

    /**
     * The installation's AssemblyAI streaming address (its WebSocket and its token endpoint alike: https -> wss; the
     * EU's is https://streaming.eu.assemblyai.com).
     */
    public String assemblyai() {
        return address("assemblyai");
    }

    /**
     * The installation's address for a speech provider of {@link #PUBLIC}: {@code voiceagent.models.<id>-base-url}
     * (VOICEAGENT_MODELS_<ID>_BASE_URL, an underscore in the id a dash), else
     * {@code voiceagent.models.default-base-url} when set (tests set it to nowhere, so none reaches the internet),
     * else the provider's public address. Read once per provider.
     */
    public String address(String provider) {
        return addresses.computeIfAbsent(provider, p -> {
            var config = ConfigProvider.getConfig();
            String name = "voiceagent.models." + p.replace('_', '-') + "-base-url";
            return trim(config.getOptionalValue(name, String.class)
                    .or(() -> config.getOptionalValue("voiceagent.models.default-base-url", String.class))
                    .orElseGet(() -> {
                        String known = PUBLIC.get(p);
                        if (known == null) {
                            throw new IllegalArgumentException("No public address is known for " + p);
                        }
                        return known;
                    }));
        });
    }

    /**
     * The installation's Azure Speech address in {@code region} (its {@code {region}} filled in: by default
     * https://{region}.tts.speech.microsoft.com; one without it is used as it is); a region that is not a region's
     * name (eastus, westeurope) is an IllegalArgumentException, so it cannot aim the request at another host.
     */
    public String azureSpeech(String region) {
        return address("azure_speech").replace("{region}", regionName(region, "an Azure region"));
    }

    /** The installation's Azure Speech recognition address in {@code region}, as {@link #azureSpeech(String)}. */
    public String azureListen(String region) {
        return address("azure_stt").replace("{region}", regionName(region, "an Azure region"));
    }

    /**
     * The installation's Google Cloud text-to-speech address: the regional endpoint of {@code location}
     * (https://us-central1-texttospeech.googleapis.com) when one other than global is given and the address is
     * Google's own, else the address as it is. A location that is not a location's name is an IllegalArgumentException.
     */
    public String googleTts(String location) {
        String base = address("google_tts");
        if (location == null || location.isBlank() || location.strip().equalsIgnoreCase("global")) {
            return base;
        }
        String name = regionName(location, "a Google Cloud location");
        return base.equals(GOOGLE_TTS) ? "https://" + name + "-texttospeech.googleapis.com" : base;
    }

    private static String regionName(String given, String what) {
        String name = given == null ? "" : given.strip().toLowerCase(Locale.ROOT);
        if (!REGION.matcher(name).matches()) {
            throw new IllegalArgumentException("\"" + given + "\" is not the name of " + what);
        }
        return name;
    }

    /** Points a provider of {@link #address(String)} at {@code url} instead (a test's local fake). */
    public ProviderApis pointing(String provider, String url) {
        addresses.put(provider, trim(url));
        return this;
    }

    /** The installation's ElevenLabs address. */
    public String elevenlabs() {
        return elevenlabs;
    }

    /**
     * The base URL a tenant chose, or null when it chose none or the provider's public default (which the
     * catalog fills in): the installation's address for that provider is used then, and is not guarded.
     */
    public static String own(ModelEndpoint endpoint) {
        if (endpoint.managed() || endpoint.baseUrl() == null || endpoint.baseUrl().isBlank()) {
            return null;
        }
        String given = trim(endpoint.baseUrl().strip());
        return catalogDefault(endpoint).filter(given::equals).isPresent() ? null : given;
    }

    /** The provider's public base URL as the catalog lists it. */
    static Optional<String> catalogDefault(ModelEndpoint endpoint) {
        return ModelCatalog.find(endpoint.service(), endpoint.provider()).flatMap(p -> p.field("base_url"))
                .map(ModelField::defaultValue).map(v -> trim(String.valueOf(v)));
    }

    /** https -> wss, http -> ws: one setting points a provider's REST and WebSocket endpoints alike. */
    public static String websocket(String base) {
        String url = trim(base);
        return url.startsWith("https://") ? "wss://" + url.substring(8)
                : url.startsWith("http://") ? "ws://" + url.substring(7) : url;
    }

    public static String trim(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    public static String display(String provider) {
        return switch (provider) {
            case "openai", "openai_realtime" -> "OpenAI";
            case "elevenlabs" -> "ElevenLabs";
            case "deepgram" -> "Deepgram";
            case "cartesia" -> "Cartesia";
            case "assemblyai" -> "AssemblyAI";
            case "xai" -> "xAI";
            case "smallest" -> "Smallest AI";
            case "camb" -> "Camb.ai";
            case "lmnt" -> "LMNT";
            case "azure_speech" -> "Azure Speech";
            case "minimax" -> "MiniMax";
            case "grok_realtime" -> "Grok";
            case "azure_realtime" -> "Azure OpenAI";
            case "ultravox_realtime" -> "Ultravox";
            case "google_realtime", "google_vertex_realtime" -> "Gemini Live";
            case "dograh" -> "The installation's managed models";
            default -> provider.substring(0, 1).toUpperCase(Locale.ROOT) + provider.substring(1);
        };
    }
}
