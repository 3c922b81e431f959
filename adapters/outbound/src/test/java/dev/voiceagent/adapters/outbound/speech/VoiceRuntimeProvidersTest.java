package dev.voiceagent.adapters.outbound.speech;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.UnsupportedSpeechProvider;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.model.ModelCatalog;
import dev.voiceagent.domain.model.ModelField;
import dev.voiceagent.domain.model.ModelProvider;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.model.VoiceRuntimeProviders;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The domain's list of the speech providers a call can use (what a saved configuration is checked against) and what
 * the speech adapters really open agree, both ways, for every provider of the catalog: a listed one opens (its
 * connection then fails here, nobody listens), any other is refused. The simulator's are routed by the composition
 * root to the simulator's own adapter.
 */
class VoiceRuntimeProvidersTest {

    private static final String NOWHERE = "http://127.0.0.1:9";
    private static Vertx vertx;
    private static SpeechProviders speech;
    private static RealtimeModels realtime;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        GuardedHttp http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(300));
        ProviderApis apis = new ProviderApis(NOWHERE + "/v1", NOWHERE, "v", NOWHERE, NOWHERE, NOWHERE, "v");
        ProviderApis.PUBLIC.keySet().forEach(provider -> apis.pointing(provider, NOWHERE));
        speech = new SpeechProviders(http, apis, vertx, Duration.ofMillis(300), 3, Duration.ofMillis(100),
                Duration.ofSeconds(1));
        realtime = new RealtimeModels(http, apis, Duration.ofMillis(300));
        realtime.live = new LiveModels(http, apis, vertx, Duration.ofMillis(300), 3, Duration.ofMillis(100),
                Duration.ofSeconds(1), Optional.empty());
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private static ModelEndpoint endpoint(ModelProvider provider) {
        boolean managed = "dograh".equals(provider.id());
        Map<String, Object> settings = new HashMap<>(Map.of("provider", provider.id()));
        provider.fields().stream() // what the catalog requires is there in a saved configuration (an endpoint...)
                .filter(f -> f.required() && f.defaultValue() == null && f.type() == ModelField.Type.TEXT)
                .forEach(f -> settings.put(f.name(), NOWHERE));
        return new ModelEndpoint(provider.service(), provider.id(), null, managed || provider.field("base_url")
                .isPresent() ? NOWHERE + "/v1" : null, List.of("key"), settings, managed);
    }

    private static final TextToSpeech.Listener SPEAKER = new TextToSpeech.Listener() {
        @Override
        public void audio(String utterance, byte[] audio) {
        }

        @Override
        public void done(String utterance) {
        }

        @Override
        public void failed(String message) {
        }
    };

    private static final SpeechToText.Listener LISTENER = new SpeechToText.Listener() {
        @Override
        public void transcript(String text, boolean isFinal) {
        }

        @Override
        public void failed(String message) {
        }
    };

    @Test
    void everyTextToSpeechProviderListedOpensAndEveryOtherIsRefused() {
        for (ModelProvider provider : ModelCatalog.of(ModelService.TTS)) {
            if (provider.id().equals("simulator")) {
                continue;
            }
            if (VoiceRuntimeProviders.TTS.contains(provider.id())) {
                assertThatCode(() -> speech.open(endpoint(provider), AudioFormat.MULAW_8K, SPEAKER).close())
                        .as(provider.id()).doesNotThrowAnyException();
            } else {
                assertThatThrownBy(() -> speech.open(endpoint(provider), AudioFormat.MULAW_8K, SPEAKER))
                        .as(provider.id()).isInstanceOf(UnsupportedSpeechProvider.class);
            }
        }
    }

    @Test
    void everySpeechToTextProviderListedOpensAndEveryOtherIsRefused() {
        for (ModelProvider provider : ModelCatalog.of(ModelService.STT)) {
            if (provider.id().equals("simulator")) {
                continue;
            }
            if (VoiceRuntimeProviders.STT.contains(provider.id())) {
                assertThatCode(() -> speech.open(endpoint(provider), AudioFormat.MULAW_8K, LISTENER).close())
                        .as(provider.id()).doesNotThrowAnyException();
            } else {
                assertThatThrownBy(() -> speech.open(endpoint(provider), AudioFormat.MULAW_8K, LISTENER))
                        .as(provider.id()).isInstanceOf(UnsupportedSpeechProvider.class);
            }
        }
    }

    private static final SpeechToSpeech.Listener MODEL = new SpeechToSpeech.Listener() {
        @Override
        public void speechStarted() {
        }

        @Override
        public void speechStopped(String itemId) {
        }

        @Override
        public void heard(String itemId, String transcript) {
        }

        @Override
        public void responseStarted(String responseId) {
        }

        @Override
        public void audio(String responseId, String itemId, byte[] audio) {
        }

        @Override
        public void transcript(String responseId, String delta) {
        }

        @Override
        public void responseDone(SpeechToSpeech.Response response) {
        }

        @Override
        public void warning(String message) {
        }

        @Override
        public void failed(String message) {
        }
    };

    @Test
    void everySpeechToSpeechModelListedOpensAndEveryOtherIsRefused() {
        for (ModelProvider provider : ModelCatalog.of(ModelService.REALTIME)) {
            if (VoiceRuntimeProviders.REALTIME.contains(provider.id())) {
                assertThatCode(() -> realtime.open(endpoint(provider), AudioFormat.MULAW_8K, MODEL).close())
                        .as(provider.id()).doesNotThrowAnyException();
            } else {
                assertThatThrownBy(() -> realtime.open(endpoint(provider), AudioFormat.MULAW_8K, MODEL))
                        .as(provider.id()).isInstanceOf(UnsupportedSpeechProvider.class)
                        .hasMessageContaining("speech-to-speech");
            }
        }
        assertThat(ModelCatalog.of(ModelService.REALTIME)).extracting(ModelProvider::id)
                .containsAll(VoiceRuntimeProviders.REALTIME);
    }
}
