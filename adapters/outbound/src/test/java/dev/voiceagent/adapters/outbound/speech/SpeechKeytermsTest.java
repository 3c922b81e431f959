package dev.voiceagent.adapters.outbound.speech;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.domain.audio.AudioFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A workflow's dictionary, as each speech-to-text provider is told the words to expect. */
class SpeechKeytermsTest {

    @Test
    void novaThreeAndFluxGetKeytermsTheModelsBeforeKeywordsAndNoneWithoutADictionary() {
        List<String> terms = List.of("Acme Pay", "Zyrtec");
        assertThat(DeepgramListen.query("nova-3-general", "en", AudioFormat.MULAW_8K, terms))
                .endsWith("&keyterm=Acme+Pay&keyterm=Zyrtec");
        assertThat(DeepgramListen.query("nova-2-phonecall", "en", AudioFormat.MULAW_8K, terms))
                .endsWith("&keywords=Acme+Pay&keywords=Zyrtec").doesNotContain("keyterm");
        assertThat(DeepgramListen.fluxQuery("flux-general-en", "en", AudioFormat.MULAW_8K, terms))
                .contains("&keyterm=Acme+Pay&keyterm=Zyrtec");
        assertThat(DeepgramListen.query("nova-3-general", "en", AudioFormat.MULAW_8K))
                .doesNotContain("keyterm", "keywords");
    }

    @Test
    void openAiTranscriptionHearsThemInItsPrompt() {
        assertThat(OpenAiTranscription.session("gpt-4o-transcribe", "en", List.of("Acme Pay", "Zyrtec"))
                .getJsonObject("session").getJsonObject("audio").getJsonObject("input")
                .getJsonObject("transcription").getString("prompt"))
                .isEqualTo("Words that may be said: Acme Pay, Zyrtec.");
        assertThat(OpenAiTranscription.session("gpt-4o-transcribe", "en").getJsonObject("session")
                .getJsonObject("audio").getJsonObject("input").getJsonObject("transcription").containsKey("prompt"))
                .isFalse();
    }
}
