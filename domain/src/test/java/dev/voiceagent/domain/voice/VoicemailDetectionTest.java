package dev.voiceagent.domain.voice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VoicemailDetectionTest {

    private static VoicemailDetection of(Map<String, Object> settings) {
        return VoicemailDetection.of(Map.of("voicemail_detection", settings));
    }

    @Test
    void theReferencesSettingsAreReadWithItsDefaultsAndOffUnlessEnabled() {
        assertThat(VoicemailDetection.of(null)).isEqualTo(VoicemailDetection.OFF);
        assertThat(VoicemailDetection.of(Map.of("max_call_duration", 300))).isEqualTo(VoicemailDetection.OFF);
        assertThat(of(Map.of("enabled", false, "action", "nonsense"))).as("off: not read further")
                .isEqualTo(VoicemailDetection.OFF);
        VoicemailDetection on = of(Map.of("enabled", true));
        assertThat(on.enabled()).isTrue();
        assertThat(on.useWorkflowLlm()).isTrue();
        assertThat(on.longSpeech()).isEqualTo(Duration.ofSeconds(8));
        assertThat(on.action()).isEqualTo(VoicemailDetection.Action.HANG_UP);
        assertThat(on.question("Hi, leave a message").messages()).extracting(m -> m.content())
                .containsExactly(VoicemailDetection.DEFAULT_PROMPT, "Text: Hi, leave a message");
        VoicemailDetection own = of(Map.of("enabled", true, "use_workflow_llm", false, "provider", "groq",
                "model", "llama", "api_key", "gk", "system_prompt", "Classify.", "long_speech_timeout", 5.5,
                "action", "leave_message", "message", "Call us back."));
        assertThat(own.useWorkflowLlm()).isFalse();
        assertThat(own.longSpeech()).isEqualTo(Duration.ofMillis(5_500));
        assertThat(own.action()).isEqualTo(VoicemailDetection.Action.LEAVE_MESSAGE);
        assertThat(own.question("x").messages().getFirst().content()).isEqualTo("Classify.");
    }

    @Test
    void aSettingACallCouldNotFollowIsRefused() {
        assertThatThrownBy(() -> of(Map.of("enabled", true, "action", "leave_message")))
                .isInstanceOf(DomainRuleViolation.class).hasMessageContaining("message to leave");
        assertThatThrownBy(() -> of(Map.of("enabled", true, "action", "sing")))
                .isInstanceOf(DomainRuleViolation.class).hasMessageContaining("hang_up or leave_message");
        assertThatThrownBy(() -> of(Map.of("enabled", true, "long_speech_timeout", 0)))
                .isInstanceOf(DomainRuleViolation.class).hasMessageContaining("long_speech_timeout");
        assertThatThrownBy(() -> of(Map.of("enabled", true, "long_speech_timeout", 90)))
                .isInstanceOf(DomainRuleViolation.class).hasMessageContaining("long_speech_timeout");
    }

    @Test
    void onlyAClearVoicemailVerdictHangsUpOnTheCallee() {
        assertThat(VoicemailDetection.verdict("VOICEMAIL")).isEqualTo(VoicemailDetection.Verdict.VOICEMAIL);
        assertThat(VoicemailDetection.verdict(" voicemail.")).isEqualTo(VoicemailDetection.Verdict.VOICEMAIL);
        assertThat(VoicemailDetection.verdict("CONVERSATION")).isEqualTo(VoicemailDetection.Verdict.CONVERSATION);
        assertThat(VoicemailDetection.verdict(null)).isEqualTo(VoicemailDetection.Verdict.CONVERSATION);
        assertThat(VoicemailDetection.verdict("I am not sure")).isEqualTo(VoicemailDetection.Verdict.CONVERSATION);
    }
}
