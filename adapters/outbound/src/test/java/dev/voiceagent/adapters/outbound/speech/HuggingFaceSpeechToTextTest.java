package dev.voiceagent.adapters.outbound.speech;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.application.voice.runtime.port.out.UnsupportedSpeechProvider;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.model.ModelService;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Hugging Face's speech-to-text does not stream: a call refuses it at its start, saying why, and asks nothing. */
class HuggingFaceSpeechToTextTest {

    @Test
    void aCallRefusesItWithTheReason() {
        Vertx vertx = Vertx.vertx();
        try {
            String nowhere = "http://127.0.0.1:9";
            SpeechProviders speech = new SpeechProviders(new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")),
                    Duration.ofMillis(300)), new ProviderApis(nowhere, nowhere, "v", nowhere, nowhere, nowhere, "v"),
                    vertx, Duration.ofMillis(300), 3, Duration.ofMillis(100), Duration.ofSeconds(1));
            ModelEndpoint endpoint = new ModelEndpoint(ModelService.STT, "huggingface",
                    "openai/whisper-large-v3-turbo", "https://router.huggingface.co/hf-inference", List.of("hf_key"),
                    Map.of("provider", "huggingface"), false);
            assertThatThrownBy(() -> speech.open(endpoint, AudioFormat.MULAW_8K, new SpeechToText.Listener() {
                @Override
                public void transcript(String text, boolean isFinal) {
                }

                @Override
                public void failed(String message) {
                }
            })).isInstanceOf(UnsupportedSpeechProvider.class).hasMessage(SpeechProviders.HUGGINGFACE_STT)
                    .hasMessageContaining("does not stream");
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }
}
