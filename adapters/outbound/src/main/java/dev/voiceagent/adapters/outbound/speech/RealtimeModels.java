package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.UnsupportedSpeechProvider;
import dev.voiceagent.domain.audio.AudioFormat;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The speech-to-speech models the voice runtime speaks to (domain VoiceRuntimeProviders.REALTIME lists them, and a
 * configuration naming another is refused when saved), on the phone's μ-law and a browser's PCM alike:
 * <ul>
 * <li>OpenAI's Realtime API at the installation's OpenAI address (VOICEAGENT_MODELS_OPENAI_BASE_URL, https -> wss) or
 * the base URL the organization chose (then through the address guard);</li>
 * <li>Azure OpenAI's at the organization's resource {@code endpoint} (always guarded; the key as {@code api-key}):
 * {@code /openai/v1/realtime?model=<deployment>} for api_version v1 (the GA API), else the preview protocol at
 * {@code /openai/realtime?api-version=<version>&deployment=<deployment>};</li>
 * <li>xAI's Grok Voice Agent API at {@code /realtime?model=...} of the installation's Grok address
 * (VOICEAGENT_MODELS_GROK_REALTIME_BASE_URL, default https://api.x.ai/v1; Bearer key).</li>
 * </ul>
 */
@Singleton
public class RealtimeModels implements SpeechToSpeech {

    static final String DEFAULT_MODEL = "gpt-realtime-2";
    /** The transcription of the caller's turns beside the model (the run's transcript, the turn's user message). */
    static final String TRANSCRIPTION_MODEL = "gpt-4o-mini-transcribe";
    /** Azure's: whisper-1 is the transcription every Azure realtime deployment offers. */
    static final String AZURE_TRANSCRIPTION_MODEL = "whisper-1";

    private final GuardedHttp http;
    private final ProviderApis apis;
    private final Duration timeout;
    /** Gemini Live and Ultravox, which speak protocols of their own. */
    @Inject
    LiveModels live;

    public RealtimeModels(GuardedHttp http, ProviderApis apis,
            @ConfigProperty(name = "voiceagent.models.timeout", defaultValue = "PT10S") Duration timeout) {
        this.http = http;
        this.apis = apis;
        this.timeout = timeout;
    }

    /** Where and how a call's Realtime socket is opened. */
    private record Target(OpenAiRealtime.Dialect dialect, String url, Map<String, String> headers, boolean guarded,
            String transcriptionModel) {
    }

    @Override
    public Stream open(ModelEndpoint endpoint, AudioFormat format, Listener listener) {
        if (LiveModels.serves(endpoint.provider())) {
            return live.open(endpoint, format, listener);
        }
        Target target = switch (endpoint.provider()) {
            case "openai_realtime" -> openAi(endpoint);
            case "azure_realtime" -> azure(endpoint);
            case "grok_realtime" -> grok(endpoint);
            default -> throw new UnsupportedSpeechProvider("The voice runtime cannot use " + ProviderApis.display(
                    endpoint.provider()) + " for speech-to-speech yet (OpenAI Realtime, Azure OpenAI Realtime and"
                    + " Grok can)");
        };
        OpenAiRealtime.Voice voice = new OpenAiRealtime.Voice(SpeechProviders.setting(endpoint, "voice", null,
                target.dialect() == OpenAiRealtime.Dialect.GROK ? "ara" : "alloy"),
                SpeechProviders.setting(endpoint, "language", null, null), target.transcriptionModel());
        OpenAiRealtime stream = new OpenAiRealtime(target.dialect(), format, voice, listener);
        http.webSocket(target.url(), target.headers(), timeout, target.guarded())
                .onSuccess(stream::connected)
                .onFailure(failure -> stream.refused(target.dialect().display + ": " + failure.getMessage()));
        return stream;
    }

    private Target openAi(ModelEndpoint endpoint) {
        String own = ProviderApis.own(endpoint);
        String model = SpeechProviders.setting(endpoint, "model", endpoint.model(), DEFAULT_MODEL);
        String url = SpeechProviders.websocket(own != null ? own : apis.openai()) + "/realtime?model=" + encode(model);
        return new Target(OpenAiRealtime.Dialect.OPENAI, url, Map.of("Authorization", "Bearer "
                + SpeechProviders.key(endpoint, "OpenAI")), own != null, TRANSCRIPTION_MODEL);
    }

    /** Azure's resource endpoint is the organization's own: always through the address guard. */
    private Target azure(ModelEndpoint endpoint) {
        String resource = SpeechProviders.setting(endpoint, "endpoint", null, null);
        if (resource == null) {
            throw new UnsupportedSpeechProvider("Azure OpenAI Realtime needs the endpoint of its resource in the model"
                    + " configuration (https://<resource>.openai.azure.com)");
        }
        String base = SpeechProviders.websocket(ProviderApis.trim(resource.strip()));
        String deployment = SpeechProviders.setting(endpoint, "model", endpoint.model(), "gpt-realtime");
        String version = SpeechProviders.setting(endpoint, "api_version", null, "v1");
        boolean ga = "v1".equals(version);
        String url = ga ? base + "/openai/v1/realtime?model=" + encode(deployment)
                : base + "/openai/realtime?api-version=" + encode(version) + "&deployment=" + encode(deployment);
        return new Target(ga ? OpenAiRealtime.Dialect.AZURE : OpenAiRealtime.Dialect.AZURE_PREVIEW, url,
                Map.of("api-key", SpeechProviders.key(endpoint, "Azure OpenAI")), true, AZURE_TRANSCRIPTION_MODEL);
    }

    private Target grok(ModelEndpoint endpoint) {
        String model = SpeechProviders.setting(endpoint, "model", endpoint.model(), "grok-voice-think-fast-1.0");
        String url = SpeechProviders.websocket(apis.address("grok_realtime")) + "/realtime?model=" + encode(model);
        return new Target(OpenAiRealtime.Dialect.GROK, url, Map.of("Authorization", "Bearer "
                + SpeechProviders.key(endpoint, "Grok")), false, null);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
