package dev.voiceagent.domain.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkflowModelOverridesTest {

    private static final EffectiveModels ORGANIZATION = new EffectiveModels(
            Map.of("provider", "openai", "api_key", "sk-1", "model", "gpt-4.1"),
            Map.of("provider", "elevenlabs", "api_key", "el-1", "voice", "org-voice"),
            Map.of("provider", "deepgram", "api_key", "dg-1"), null, null, false);

    @Test
    void anOverrideOfTheSameProviderMergesAnotherProviderReplacesAndTheRestIsInherited() {
        EffectiveModels same = ORGANIZATION.withOverrides(Map.of("tts", Map.of("voice", "workflow-voice")));
        assertThat(same.tts()).containsEntry("provider", "elevenlabs").containsEntry("api_key", "el-1")
                .containsEntry("voice", "workflow-voice");
        assertThat(same.llm()).isSameAs(ORGANIZATION.llm());
        EffectiveModels other = ORGANIZATION.withOverrides(Map.of("tts", Map.of("provider", "cartesia", "api_key",
                "ca-1", "voice", "uuid-1"), "is_realtime", true));
        assertThat(other.tts()).containsEntry("provider", "cartesia").containsEntry("api_key", "ca-1")
                .containsEntry("voice", "uuid-1").as("the catalog's defaults for the rest")
                .containsEntry("model", "sonic-3.5").doesNotContainKey("max_tokens");
        assertThat(other.realtimeMode()).isTrue();
        assertThat(other.stt()).isSameAs(ORGANIZATION.stt());
        assertThat(ORGANIZATION.withOverrides(null)).isSameAs(ORGANIZATION);
        assertThat(ORGANIZATION.withOverrides(Map.of("tts", "nonsense"))).isEqualTo(ORGANIZATION);
        assertThat(EffectiveModels.EMPTY.withOverrides(Map.of("tts", Map.of("voice", "x"))).tts())
                .as("no provider to speak with: nothing").isNull();
    }

    @Test
    void anOverrideVoiceTheRuntimeCannotUseIsRefused() {
        VoiceRuntimeProviders.checkOverrides(Map.of("model_overrides", Map.of("tts", Map.of("provider", "cartesia"))));
        VoiceRuntimeProviders.checkOverrides(Map.of("max_call_duration", 300));
        VoiceRuntimeProviders.checkOverrides(null);
        assertThatThrownBy(() -> VoiceRuntimeProviders.checkOverrides(Map.of("model_overrides",
                Map.of("stt", Map.of("provider", "huggingface")))))
                .isInstanceOf(DomainRuleViolation.class).hasMessageContaining("model_overrides.stt")
                .hasMessageContaining("cannot use huggingface for speech-to-text").hasMessageContaining("does not stream");
        VoiceRuntimeProviders.checkOverrides(Map.of("model_overrides", Map.of("tts", Map.of("provider", "google"),
                "stt", Map.of("provider", "gladia")))); // every other voice and ear of the catalog is spoken
        VoiceRuntimeProviders.checkOverrides(Map.of("model_overrides", Map.of("stt", Map.of("provider",
                "assemblyai")))); // AssemblyAI's streaming listens on calls
        VoiceRuntimeProviders.checkOverrides(Map.of("model_overrides", Map.of("realtime", Map.of("provider",
                "openai_realtime"), "is_realtime", true)));
        assertThatThrownBy(() -> VoiceRuntimeProviders.checkOverrides(Map.of("model_overrides",
                Map.of("realtime", Map.of("provider", "nosuch_realtime")))))
                .isInstanceOf(DomainRuleViolation.class).hasMessageContaining("model_overrides.realtime")
                .hasMessageContaining("speech-to-speech");
    }
}
