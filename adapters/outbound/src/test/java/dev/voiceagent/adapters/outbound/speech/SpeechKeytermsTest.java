package dev.voiceagent.adapters.outbound.speech;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.domain.audio.AudioFormat;
import io.vertx.core.json.JsonArray;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;
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
    void assemblyAiGetsThemAsAJsonKeytermsPromptWithinItsLimits() {
        String query = AssemblyAiListen.query("u3-rt-pro", AudioFormat.MULAW_8K, List.of("Acme Pay", "Zyrtec"));
        assertThat(query).endsWith("&keyterms_prompt=" + "%5B%22Acme+Pay%22%2C%22Zyrtec%22%5D");
        assertThat(AssemblyAiListen.query("u3-rt-pro", AudioFormat.MULAW_8K, List.of()))
                .doesNotContain("keyterms_prompt");
        // more than AssemblyAI takes would refuse the whole session: the first 100 terms of at most 50 characters
        List<String> many = IntStream.range(0, 120).mapToObj(i -> i == 0 ? "x".repeat(51) : "term " + i).toList();
        String asked = AssemblyAiListen.query("u3-rt-pro", AudioFormat.MULAW_8K, many);
        JsonArray terms = new JsonArray(URLDecoder.decode(asked.substring(asked.indexOf("keyterms_prompt=") + 16),
                StandardCharsets.UTF_8));
        assertThat(terms).hasSize(100);
        assertThat(terms.getString(0)).isEqualTo("term 1");
        assertThat(terms.getString(99)).isEqualTo("term 100");
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
