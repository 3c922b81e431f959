package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.UnsupportedSpeechProvider;
import dev.voiceagent.domain.audio.AudioFormat;
import jakarta.inject.Singleton;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The speech-to-speech models the voice runtime speaks to (domain VoiceRuntimeProviders.REALTIME lists them, and a
 * configuration naming another is refused when saved): OpenAI's Realtime API at the installation's OpenAI address
 * (VOICEAGENT_MODELS_OPENAI_BASE_URL, https -> wss) or the base URL the organization chose (then through the address
 * guard), on the phone's μ-law both ways.
 */
@Singleton
public class RealtimeModels implements SpeechToSpeech {

    static final String DEFAULT_MODEL = "gpt-realtime-2";
    /** The transcription of the caller's turns beside the model (the run's transcript, the turn's user message). */
    static final String TRANSCRIPTION_MODEL = "gpt-4o-mini-transcribe";

    private final GuardedHttp http;
    private final ProviderApis apis;
    private final Duration timeout;

    public RealtimeModels(GuardedHttp http, ProviderApis apis,
            @ConfigProperty(name = "voiceagent.models.timeout", defaultValue = "PT10S") Duration timeout) {
        this.http = http;
        this.apis = apis;
        this.timeout = timeout;
    }

    @Override
    public Stream open(ModelEndpoint endpoint, AudioFormat format, Listener listener) {
        if (!"openai_realtime".equals(endpoint.provider())) {
            throw new UnsupportedSpeechProvider("The voice runtime cannot use " + ProviderApis.display(
                    endpoint.provider()) + " for speech-to-speech yet (OpenAI Realtime can)");
        }
        if (format.encoding() != AudioFormat.Encoding.MULAW) {
            throw new UnsupportedSpeechProvider("OpenAI Realtime is used on phone calls (μ-law) only");
        }
        String own = ProviderApis.own(endpoint);
        String model = SpeechProviders.setting(endpoint, "model", endpoint.model(), DEFAULT_MODEL);
        String url = SpeechProviders.websocket(own != null ? own : apis.openai()) + "/realtime?model="
                + URLEncoder.encode(model, StandardCharsets.UTF_8);
        OpenAiRealtime.Voice voice = new OpenAiRealtime.Voice(SpeechProviders.setting(endpoint, "voice", null,
                "alloy"), SpeechProviders.setting(endpoint, "language", null, null), TRANSCRIPTION_MODEL);
        OpenAiRealtime stream = new OpenAiRealtime(format, voice, listener);
        http.webSocket(url, Map.of("Authorization", "Bearer " + SpeechProviders.key(endpoint, "OpenAI")), timeout,
                        own != null)
                .onSuccess(stream::connected)
                .onFailure(failure -> stream.refused("OpenAI Realtime: " + failure.getMessage()));
        return stream;
    }
}
