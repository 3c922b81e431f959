package dev.voiceagent.domain.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@SuppressWarnings("unchecked")
class ModelConfigurationDocumentTest {

    private static final List<Object> BODY = List.of("body");

    private static Map<String, Object> pipeline(Map<String, Object> llm, Map<String, Object> tts, Map<String, Object> stt) {
        return Map.of("mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of("llm", llm, "tts", tts,
                "stt", stt)));
    }

    @Test
    void aValidPipelineIsNormalizedWithEachProvidersDefaults() {
        var checked = ModelConfigurationDocument.checkV2(pipeline(Map.of("provider", "openai", "api_key", "sk-1"),
                Map.of("provider", "elevenlabs", "api_key", "el-1", "speed", 1.15),
                Map.of("provider", "deepgram", "api_key", List.of("dg-1", "dg-2"))), BODY);
        assertThat(checked.problems()).isEmpty();
        EffectiveModels effective = ModelConfigurationDocument.effective(checked.value());
        assertThat(effective.llm()).containsEntry("model", "gpt-4.1").containsEntry("base_url", "https://api.openai.com/v1");
        assertThat(effective.tts()).containsEntry("speed", 1.15).containsEntry("voice", "21m00Tcm4TlvDq8ikWAM");
        assertThat(effective.stt()).containsEntry("api_key", List.of("dg-1", "dg-2"));
        assertThat(effective.realtimeMode()).isFalse();
        assertThat(checked.value()).containsEntry("version", 2);
    }

    @Test
    void eachStageMayNameFallbacksCheckedAsItsOwnSettingsInOrder() {
        var checked = ModelConfigurationDocument.checkV2(pipeline(Map.of("provider", "openai", "api_key", "sk-1",
                "fallbacks", List.of(Map.of("provider", "groq", "api_key", "gq-1"))),
                Map.of("provider", "elevenlabs", "api_key", "el-1", "fallbacks", List.of(
                        Map.of("provider", "cartesia", "api_key", "ca-1"), Map.of("provider", "deepgram",
                                "api_key", "dg-9"))),
                Map.of("provider", "deepgram", "api_key", "dg-1")), BODY);
        assertThat(checked.problems()).isEmpty();
        EffectiveModels effective = ModelConfigurationDocument.effective(checked.value());
        assertThat((List<?>) effective.tts().get("fallbacks")).hasSize(2).first().asInstanceOf(
                org.assertj.core.api.InstanceOfAssertFactories.MAP).containsEntry("provider", "cartesia")
                .containsKey("voice"); // with its own defaults
        assertThat((List<?>) effective.llm().get("fallbacks")).singleElement().asInstanceOf(
                org.assertj.core.api.InstanceOfAssertFactories.MAP).containsEntry("provider", "groq");
        assertThat(effective.stt()).doesNotContainKey("fallbacks");
    }

    @Test
    void anElevenLabsSpeedOutsideItsRangeIsRefusedWithItsPlaceAndOneWithinIsKept() {
        var refused = ModelConfigurationDocument.checkV2(pipeline(Map.of("provider", "openai", "api_key", "k"),
                Map.of("provider", "elevenlabs", "api_key", "k", "speed", 1.5, "fallbacks", List.of(
                        Map.of("provider", "elevenlabs", "api_key", "k", "speed", 0.5))),
                Map.of("provider", "deepgram", "api_key", "k")), BODY);
        assertThat(refused.problems()).extracting(SettingsProblem::loc).containsExactlyInAnyOrder(
                List.of("body", "byok", "pipeline", "tts", "speed"),
                List.of("body", "byok", "pipeline", "tts", "fallbacks", 0, "speed"));
        assertThat(refused.problems()).allSatisfy(p -> assertThat(p.msg()).contains("0.7 to 1.2"));
        assertThat(ModelConfigurationDocument.checkV2(pipeline(Map.of("provider", "openai", "api_key", "k"),
                Map.of("provider", "elevenlabs", "api_key", "k", "speed", 1.2),
                Map.of("provider", "deepgram", "api_key", "k")), BODY).problems()).isEmpty();
    }

    @Test
    void fallbacksAreRefusedWithTheirPlaceWhenTheyCannotServeACall() {
        var refused = ModelConfigurationDocument.checkV2(pipeline(Map.of("provider", "openai", "api_key", "k"),
                Map.of("provider", "elevenlabs", "api_key", "k", "fallbacks", List.of(
                        Map.of("provider", "google", "api_key", "g"),
                        Map.of("provider", "cartesia", "api_key", "c", "fallbacks", List.of()))),
                Map.of("provider", "deepgram", "api_key", "k", "fallbacks", Map.of("provider", "openai"))), BODY);
        assertThat(refused.problems()).extracting(SettingsProblem::loc).containsExactly(
                List.of("body", "byok", "pipeline", "tts", "fallbacks", 1, "fallbacks"),
                List.of("body", "byok", "pipeline", "stt", "fallbacks"));
        assertThat(refused.problems()).extracting(SettingsProblem::type)
                .containsExactly("extra_forbidden", "list_type");
        var deaf = ModelConfigurationDocument.checkV2(pipeline(Map.of("provider", "openai", "api_key", "k"),
                Map.of("provider", "elevenlabs", "api_key", "k"), Map.of("provider", "deepgram", "api_key", "k",
                        "fallbacks", List.of(Map.of("provider", "huggingface", "api_key", "hf_1")))), BODY);
        assertThat(deaf.problems()).singleElement().satisfies(p -> {
            assertThat(p.loc()).isEqualTo(List.of("body", "byok", "pipeline", "stt", "fallbacks", 0, "provider"));
            assertThat(p.type()).isEqualTo("voice_runtime_unsupported"); // an ear no call can listen with
            assertThat(p.msg()).contains("does not stream");
        });
        var many = ModelConfigurationDocument.checkV2(pipeline(Map.of("provider", "openai", "api_key", "k",
                "fallbacks", List.of(Map.of("provider", "groq", "api_key", "1"), Map.of("provider", "groq",
                        "api_key", "2"), Map.of("provider", "groq", "api_key", "3"), Map.of("provider", "groq",
                        "api_key", "4"))), Map.of("provider", "cartesia", "api_key", "k"),
                Map.of("provider", "deepgram", "api_key", "k")), BODY);
        assertThat(many.problems()).singleElement().satisfies(p -> assertThat(p.type()).isEqualTo("too_long"));
    }

    @Test
    void aFallbacksMaskedKeyIsRestoredFromTheStoredFallbackAtItsPlace() {
        Map<String, Object> stored = Map.of("provider", "elevenlabs", "api_key", "el-secret-1234", "fallbacks",
                List.of(Map.of("provider", "cartesia", "api_key", "ca-secret-5678")));
        Map<String, Object> masked = (Map<String, Object>) ModelSecrets.masked(stored);
        assertThat(((Map<?, ?>) ((List<?>) masked.get("fallbacks")).getFirst()).get("api_key"))
                .asString().doesNotContain("secret");
        Map<String, Object> restored = ModelSecrets.restored(masked, stored);
        assertThat(restored).isEqualTo(stored);
        Map<String, Object> changed = ModelSecrets.restored(Map.of("provider", "elevenlabs", "api_key",
                masked.get("api_key"), "fallbacks", List.of(Map.of("provider", "deepgram", "api_key",
                ((Map<?, ?>) ((List<?>) masked.get("fallbacks")).getFirst()).get("api_key")))), stored);
        assertThat(((Map<?, ?>) ((List<?>) changed.get("fallbacks")).getFirst()).get("api_key"))
                .as("another provider's fallback keeps what was sent").isNotEqualTo("ca-secret-5678");
    }

    @Test
    void eachFieldIsCheckedAndNamedByItsLoc() {
        var unknown = ModelConfigurationDocument.checkV2(pipeline(Map.of("provider", "nope"),
                Map.of("provider", "elevenlabs"), Map.of("provider", "deepgram", "api_key", "k", "language", 5)), BODY);
        assertThat(unknown.problems()).extracting(SettingsProblem::loc).containsExactly(
                List.of("body", "byok", "pipeline", "llm", "provider"),
                List.of("body", "byok", "pipeline", "tts", "api_key"),
                List.of("body", "byok", "pipeline", "stt", "language"));
        assertThat(unknown.problems()).extracting(SettingsProblem::type)
                .containsExactly("union_tag_invalid", "missing", "string_type");
        var speed = ModelConfigurationDocument.checkV2(pipeline(Map.of("provider", "openai", "api_key", "k"),
                Map.of("provider", "elevenlabs", "api_key", "k", "speed", 2.5),
                Map.of("provider", "deepgram", "api_key", "k")), BODY);
        assertThat(speed.problems()).singleElement().satisfies(p -> {
            assertThat(p.loc()).containsExactly("body", "byok", "pipeline", "tts", "speed");
            assertThat(p.type()).isEqualTo("less_than_equal");
        });
        // MiniMax's temperature must be above 0 (an exclusive bound)
        var temperature = ModelConfigurationDocument.checkV2(pipeline(Map.of("provider", "minimax", "api_key", "k",
                "temperature", 0), Map.of("provider", "openai", "api_key", "k"), Map.of("provider", "openai",
                "api_key", "k")), BODY);
        assertThat(temperature.problems()).singleElement().satisfies(p -> assertThat(p.type()).isEqualTo("greater_than"));
        assertThat(ModelConfigurationDocument.checkV2(Map.of("mode", "cloud"), BODY).problems())
                .extracting(SettingsProblem::loc).containsExactly(List.of("body", "mode"));
        assertThat(ModelConfigurationDocument.checkV2(Map.of("mode", "dograh", "dograh", Map.of("api_key", "k",
                "speed", 0.2)), BODY).problems()).extracting(SettingsProblem::loc)
                .containsExactly(List.of("body", "dograh", "speed"));
    }

    @Test
    void managedModeUsesTheManagedProviderForEveryService() {
        var checked = ModelConfigurationDocument.checkV2(Map.of("mode", "dograh", "dograh", Map.of("api_key", "mps-1",
                "voice", "ana", "speed", 1.2)), BODY);
        EffectiveModels effective = ModelConfigurationDocument.effective(checked.value());
        assertThat(List.of(effective.llm(), effective.tts(), effective.stt(), effective.embeddings()))
                .allSatisfy(s -> assertThat(s).containsEntry("provider", "dograh").containsEntry("api_key", "mps-1"));
        assertThat(effective.tts()).containsEntry("voice", "ana").containsEntry("speed", 1.2);
        assertThat(effective.stt()).containsEntry("language", "multi");
    }

    @Test
    void aLegacyConfigurationConvertsToV2() {
        var legacy = new EffectiveModels(Map.of("provider", "openai", "api_key", "k"), null, null, null,
                Map.of("provider", "openai_realtime", "api_key", "k"), true);
        Map<String, Object> v2 = ModelConfigurationDocument.fromLegacy(legacy);
        assertThat(v2).containsEntry("mode", "byok");
        assertThat(ModelConfigurationDocument.effective(v2).realtime()).containsEntry("provider", "openai_realtime");
        assertThatThrownBy(() -> ModelConfigurationDocument.fromLegacy(EffectiveModels.EMPTY))
                .hasMessageContaining("incomplete");
        var managed = new EffectiveModels(Map.of("provider", "dograh", "api_key", "mps-9"), null, null, null, null, false);
        assertThat(ModelConfigurationDocument.fromLegacy(managed)).containsEntry("mode", "dograh");
    }

    @Test
    void secretsAreMaskedAndAMaskedValueSentBackKeepsTheStoredOne() {
        Map<String, Object> stored = Map.of("mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                "llm", Map.of("provider", "openai", "api_key", List.of("sk-first-1111", "sk-second-2222")),
                "tts", Map.of("provider", "google", "credentials", "{\"private_key\": \"abcd\"}"))));
        @SuppressWarnings("unchecked")
        Map<String, Object> masked = (Map<String, Object>) ModelSecrets.masked(stored);
        assertThat(masked.toString()).doesNotContain("sk-first").doesNotContain("private_key\": \"abcd")
                .contains("*********1111", "*********2222");
        assertThat(ModelSecrets.containsMasked(masked)).isTrue();
        // a new key added beside the masked ones, the second one sent back masked
        Map<String, Object> incoming = Map.of("mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                "llm", Map.of("provider", "openai", "api_key", List.of("**********2222", "sk-new")),
                "tts", Map.of("provider", "google"))));
        @SuppressWarnings("unchecked")
        Map<String, Object> restored = (Map<String, Object>) ModelConfigurationDocument.restoreSecrets(incoming, stored);
        assertThat(restored.toString()).contains("[sk-second-2222, sk-new]").contains("private_key");
        assertThat(ModelSecrets.containsMasked(restored)).isFalse();
        // another provider: nothing is carried over
        Map<String, Object> switched = Map.of("llm", Map.of("provider", "groq", "api_key", "*********1111"));
        assertThat(ModelSecrets.containsMasked(ModelConfigurationDocument.restoreServices(switched, Map.of("llm",
                Map.of("provider", "openai", "api_key", "sk-first-1111"))))).isTrue();
    }

    @Test
    @SuppressWarnings("unchecked")
    void theRealtimeSectionsServicesKeepTheirSecretsToo() {
        Map<String, Object> stored = Map.of("mode", "byok", "byok", Map.of("mode", "realtime", "realtime", Map.of(
                "realtime", Map.of("provider", "openai_realtime", "api_key", "sk-realtime-9999"),
                "llm", Map.of("provider", "openai", "api_key", "sk-llm-8888"))));
        Map<String, Object> masked = (Map<String, Object>) ModelSecrets.masked(stored);
        Map<String, Object> restored = (Map<String, Object>) ModelConfigurationDocument.restoreSecrets(masked, stored);
        assertThat(restored).isEqualTo(stored);
    }

    @Test
    void theSectionNotInUseIsCheckedAndKept() {
        Map<String, Object> pipeline = Map.of("llm", Map.of("provider", "openai", "api_key", "sk-1"),
                "tts", Map.of("provider", "deepgram", "api_key", "dg-1"),
                "stt", Map.of("provider", "deepgram", "api_key", "dg-2"));
        var kept = ModelConfigurationDocument.checkV2(Map.of("mode", "dograh", "dograh", Map.of("api_key", "m-1"),
                "byok", Map.of("mode", "pipeline", "pipeline", pipeline)), BODY);
        assertThat(kept.problems()).isEmpty();
        assertThat(kept.value()).containsKey("byok");
        assertThat(ModelConfigurationDocument.effective(kept.value()).llm()).containsEntry("provider", "dograh");

        var refused = ModelConfigurationDocument.checkV2(Map.of("mode", "byok", "byok", Map.of("mode", "pipeline",
                "pipeline", pipeline, "realtime", -1)), BODY);
        assertThat(refused.problems()).extracting(SettingsProblem::loc)
                .containsExactly(List.of("body", "byok", "realtime"));
    }
}
