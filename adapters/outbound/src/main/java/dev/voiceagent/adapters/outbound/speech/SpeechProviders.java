package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.SpeechToText;
import dev.voiceagent.application.voice.runtime.TextToSpeech;
import dev.voiceagent.application.voice.runtime.UnsupportedSpeechProvider;
import dev.voiceagent.domain.audio.AudioFormat;
import io.vertx.core.Vertx;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Singleton;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The speech providers the voice runtime speaks to: Deepgram live transcription and ElevenLabs' multi-context
 * WebSocket, each at the installation's address for it (VOICEAGENT_MODELS_*_BASE_URL, https -> wss) or at the base URL
 * the organization chose (then through the address guard). Any other provider is refused at call start with a reason
 * the run keeps. (Exposed as itself: the composition root routes the speech ports between this and the simulator's
 * speech.)
 */
@Singleton
@Typed(SpeechProviders.class)
public class SpeechProviders implements SpeechToText, TextToSpeech {

    private final GuardedHttp http;
    private final ProviderApis apis;
    private final Vertx vertx;
    private final Duration timeout;

    public SpeechProviders(GuardedHttp http, ProviderApis apis, Vertx vertx,
            @ConfigProperty(name = "voiceagent.models.timeout", defaultValue = "PT10S") Duration timeout) {
        this.http = http;
        this.apis = apis;
        this.vertx = vertx;
        this.timeout = timeout;
    }

    @Override
    public SpeechToText.Stream open(ModelEndpoint endpoint, AudioFormat format, SpeechToText.Listener listener) {
        if (!"deepgram".equals(endpoint.provider())) {
            throw new UnsupportedSpeechProvider("The voice runtime cannot use " + ProviderApis.display(
                    endpoint.provider()) + " for speech-to-text yet (Deepgram can)");
        }
        String model = setting(endpoint, "model", endpoint.model(), "nova-3-general");
        if (model.startsWith("flux")) {
            throw new UnsupportedSpeechProvider("The voice runtime cannot use Deepgram Flux yet: choose a Nova model");
        }
        String own = ProviderApis.own(endpoint);
        String url = websocket(own != null ? own : apis.deepgram()) + DeepgramListen.query(model,
                setting(endpoint, "language", null, "multi"), format);
        DeepgramListen stream = new DeepgramListen(vertx, format, listener);
        http.webSocket(url, Map.of("Authorization", "Token " + key(endpoint, "Deepgram")), timeout, own != null)
                .onSuccess(stream::connected)
                .onFailure(failure -> stream.refused("Deepgram: " + failure.getMessage()));
        return stream;
    }

    @Override
    public TextToSpeech.Stream open(ModelEndpoint endpoint, AudioFormat format, TextToSpeech.Listener listener) {
        if (!"elevenlabs".equals(endpoint.provider())) {
            throw new UnsupportedSpeechProvider("The voice runtime cannot use " + ProviderApis.display(
                    endpoint.provider()) + " for text-to-speech yet (ElevenLabs can)");
        }
        String own = ProviderApis.own(endpoint);
        String voice = setting(endpoint, "voice", null, "21m00Tcm4TlvDq8ikWAM");
        String url = websocket(own != null ? own : apis.elevenlabs()) + "/v1/text-to-speech/"
                + URLEncoder.encode(voice, StandardCharsets.UTF_8) + "/multi-stream-input?model_id="
                + URLEncoder.encode(setting(endpoint, "model", endpoint.model(), "eleven_flash_v2_5"),
                        StandardCharsets.UTF_8)
                + "&output_format=" + ElevenLabsStream.output(format) + "&inactivity_timeout=180";
        String key = key(endpoint, "ElevenLabs");
        return new ElevenLabsStream(() -> http.webSocket(url, Map.of("xi-api-key", key), timeout, own != null),
                listener);
    }

    private static String key(ModelEndpoint endpoint, String provider) {
        if (endpoint.apiKey() == null || endpoint.apiKey().isBlank()) {
            throw new UnsupportedSpeechProvider(provider + " has no API key in the model configuration");
        }
        return endpoint.apiKey();
    }

    private static String setting(ModelEndpoint endpoint, String name, String given, String fallback) {
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
