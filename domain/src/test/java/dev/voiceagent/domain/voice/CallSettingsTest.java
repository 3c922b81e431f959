package dev.voiceagent.domain.voice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.workflow.WorkflowConfigurationDefaults;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallSettingsTest {

    @Test
    void theReferencesDefaultsGiveTheDefaultCall() {
        CallSettings defaults = CallSettings.of(WorkflowConfigurationDefaults.CONFIGURATION);
        assertThat(defaults).isEqualTo(CallSettings.DEFAULTS);
        assertThat(defaults.maxDuration()).isEqualTo(Duration.ofSeconds(300));
        assertThat(defaults.idle()).isEqualTo(Duration.ofSeconds(10));
        assertThat(CallSettings.of(null)).isEqualTo(CallSettings.DEFAULTS);
        CallSettings.check(WorkflowConfigurationDefaults.CONFIGURATION); // the dashboard's own defaults are saved
    }

    @Test
    void eachSettingIsRead() {
        CallSettings s = CallSettings.of(Map.of("max_call_duration", 15, "max_user_idle_timeout", 3.5,
                "turn_start_strategy", "min_words", "turn_start_min_words", 2,
                "dictionary", " Acme, Zyrtec ,, acme-pay , Acme"));
        assertThat(s.maxDuration()).isEqualTo(Duration.ofSeconds(15));
        assertThat(s.idle()).isEqualTo(Duration.ofMillis(3_500));
        assertThat(s.turnStart()).isEqualTo(CallSettings.TurnStart.MIN_WORDS);
        assertThat(s.minWords()).isEqualTo(2);
        assertThat(s.dictionary()).containsExactly("Acme", "Zyrtec", "acme-pay");
        TurnRules rules = s.rules(TurnRules.DEFAULT);
        assertThat(rules.maxDuration()).isEqualTo(Duration.ofSeconds(15));
        assertThat(rules.idle()).isEqualTo(Duration.ofMillis(3_500));
        assertThat(rules.transcriptWait()).isEqualTo(TurnRules.DEFAULT.transcriptWait());
    }

    @Test
    void provisionalVoiceActivityIsFollowedWithItsPause() {
        CallSettings.check(Map.of("turn_start_strategy", "provisional_vad", "provisional_vad_pause_secs", 0.4));
        CallSettings s = CallSettings.of(Map.of("turn_start_strategy", "provisional_vad",
                "provisional_vad_pause_secs", 0.4));
        assertThat(s.turnStart()).isEqualTo(CallSettings.TurnStart.PROVISIONAL_VAD);
        assertThat(s.provisionalPause()).isEqualTo(Duration.ofMillis(400));
        assertThat(CallSettings.of(Map.of("turn_start_strategy", "provisional_vad")).provisionalPause())
                .as("the reference's default pause").isEqualTo(Duration.ofMillis(1_500));
    }

    @Test
    void whatNoCallCanFollowIsRefusedWhenSavedWithEveryReason() {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("max_call_duration", 5_000);
        c.put("max_user_idle_timeout", 0);
        c.put("turn_start_min_words", 2.5);
        c.put("turn_stop_strategy", "turn_analyzer");
        c.put("ambient_noise_configuration", Map.of("enabled", true, "volume", 0.3));
        assertThatThrownBy(() -> CallSettings.check(c)).isInstanceOf(DomainRuleViolation.class)
                .hasMessageContaining("max_call_duration").hasMessageContaining("max_user_idle_timeout")
                .hasMessageContaining("turn_start_min_words").hasMessageContaining("end-of-turn model")
                .hasMessageContaining("ambient noise");
        assertThatThrownBy(() -> CallSettings.check(Map.of("turn_start_strategy", "provisional_vad",
                "provisional_vad_pause_secs", 0))).hasMessageContaining("provisional_vad_pause_secs");
        assertThatThrownBy(() -> CallSettings.check(Map.of("provisional_vad_pause_secs", "long")))
                .hasMessageContaining("provisional_vad_pause_secs");
        assertThatThrownBy(() -> CallSettings.check(Map.of("context_compaction_enabled", "yes")))
                .hasMessageContaining("context_compaction_enabled");
        assertThat(CallSettings.of(Map.of("context_compaction_enabled", true)).contextCompaction()).isTrue();
        assertThatThrownBy(() -> CallSettings.check(Map.of("dictionary", List.of("a"))))
                .hasMessageContaining("dictionary");
        // a stored configuration from before the check is read leniently: the defaults where it cannot be followed
        assertThat(CallSettings.of(c).maxDuration()).isEqualTo(Duration.ofSeconds(300));
    }
}
