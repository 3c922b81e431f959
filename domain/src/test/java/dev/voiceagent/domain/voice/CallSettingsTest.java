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
        CallSettings defaults = CallSettings.of(WorkflowConfigurationDefaults.CONFIGURATION, 1);
        assertThat(defaults).isEqualTo(CallSettings.DEFAULTS);
        assertThat(defaults.maxDuration()).isEqualTo(Duration.ofSeconds(300));
        assertThat(defaults.idle()).isEqualTo(Duration.ofSeconds(10));
        assertThat(CallSettings.of(null, 1)).isEqualTo(CallSettings.DEFAULTS);
        CallSettings.check(WorkflowConfigurationDefaults.CONFIGURATION, 1); // the dashboard's own defaults are saved
    }

    @Test
    void eachSettingIsRead() {
        CallSettings s = CallSettings.of(Map.of("max_call_duration", 15, "max_user_idle_timeout", 3.5,
                "turn_start_strategy", "min_words", "turn_start_min_words", 2,
                "dictionary", " Acme, Zyrtec ,, acme-pay , Acme"), 1);
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
        CallSettings.check(Map.of("turn_start_strategy", "provisional_vad", "provisional_vad_pause_secs", 0.4), 1);
        CallSettings s = CallSettings.of(Map.of("turn_start_strategy", "provisional_vad",
                "provisional_vad_pause_secs", 0.4), 1);
        assertThat(s.turnStart()).isEqualTo(CallSettings.TurnStart.PROVISIONAL_VAD);
        assertThat(s.provisionalPause()).isEqualTo(Duration.ofMillis(400));
        assertThat(CallSettings.of(Map.of("turn_start_strategy", "provisional_vad"), 1).provisionalPause())
                .as("the reference's default pause").isEqualTo(Duration.ofMillis(1_500));
    }

    @Test
    void whatNoCallCanFollowIsRefusedWhenSavedWithEveryReason() {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("max_call_duration", 5_000);
        c.put("max_user_idle_timeout", 0);
        c.put("turn_start_min_words", 2.5);
        c.put("turn_stop_strategy", "turn_analyzer");
        c.put("ambient_noise_configuration", Map.of("enabled", true, "volume", 1.5));
        assertThatThrownBy(() -> CallSettings.check(c, 1)).isInstanceOf(DomainRuleViolation.class)
                .hasMessageContaining("max_call_duration").hasMessageContaining("max_user_idle_timeout")
                .hasMessageContaining("turn_start_min_words").hasMessageContaining("end-of-turn model")
                .hasMessageContaining("ambient_noise_configuration.volume");
        assertThatThrownBy(() -> CallSettings.check(Map.of("turn_start_strategy", "provisional_vad",
                "provisional_vad_pause_secs", 0), 1)).hasMessageContaining("provisional_vad_pause_secs");
        assertThatThrownBy(() -> CallSettings.check(Map.of("provisional_vad_pause_secs", "long"), 1))
                .hasMessageContaining("provisional_vad_pause_secs");
        assertThatThrownBy(() -> CallSettings.check(Map.of("context_compaction_enabled", "yes"), 1))
                .hasMessageContaining("context_compaction_enabled");
        assertThat(CallSettings.of(Map.of("context_compaction_enabled", true), 1).contextCompaction()).isTrue();
        assertThatThrownBy(() -> CallSettings.check(Map.of("dictionary", List.of("a")), 1))
                .hasMessageContaining("dictionary");
        // a stored configuration from before the check is read leniently: the defaults where it cannot be followed
        assertThat(CallSettings.of(c, 1).maxDuration()).isEqualTo(Duration.ofSeconds(300));
    }

    @Test
    void ambientNoiseIsTheOrganizationsWavFileOrTheDefaultAtItsVolume() {
        assertThat(CallSettings.of(WorkflowConfigurationDefaults.CONFIGURATION, 1).ambientNoise())
                .as("off by default").isNull();
        assertThat(CallSettings.of(Map.of("ambient_noise_configuration", Map.of("enabled", true)), 1).ambientNoise())
                .isEqualTo(new CallSettings.AmbientNoise(0.3, null));
        String key = "ambient_noise/7/12/5f1c_office.WAV";
        Map<String, Object> own = Map.of("ambient_noise_configuration", Map.of("enabled", true, "volume", 0.5,
                "storage_key", key, "storage_backend", "minio"));
        CallSettings.check(own, 7);
        assertThat(CallSettings.of(own, 7).ambientNoise()).isEqualTo(new CallSettings.AmbientNoise(0.5, key));
        assertThat(CallSettings.of(Map.of("ambient_noise_configuration", Map.of("enabled", false,
                "storage_key", key)), 7).ambientNoise()).as("a file kept while off").isNull();

        assertThatThrownBy(() -> CallSettings.check(own, 8)).as("another organization's file")
                .isInstanceOf(DomainRuleViolation.class).hasMessageContaining("storage_key")
                .hasMessageContaining("this organization's");
        assertThat(CallSettings.of(own, 8).ambientNoise()).as("read leniently: the default sound instead")
                .isEqualTo(new CallSettings.AmbientNoise(0.5, null));
        assertThatThrownBy(() -> CallSettings.check(Map.of("ambient_noise_configuration", Map.of("enabled", true,
                "storage_key", "ambient_noise/7/12/5f1c_office.mp3")), 7)).hasMessageContaining("WAV file");
        assertThatThrownBy(() -> CallSettings.check(Map.of("ambient_noise_configuration", Map.of("enabled", "yes")),
                7)).hasMessageContaining("ambient_noise_configuration.enabled");
        assertThatThrownBy(() -> CallSettings.check(Map.of("ambient_noise_configuration", "office"), 7))
                .hasMessageContaining("ambient_noise_configuration must be an object");
        assertThatThrownBy(() -> CallSettings.check(Map.of("ambient_noise_configuration", Map.of("enabled", true,
                "volume", -0.1)), 7)).hasMessageContaining("from 0 to 1");
    }
}
