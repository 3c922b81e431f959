package dev.voiceagent.domain.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.model.ModelField.Type;
import dev.voiceagent.domain.shared.JsonText;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The catalog read from its resource: the JSON reader it needs, a provider's keys mapped onto its fields (a
 * misspelt key refused, not ignored), and the loaded catalog's sections where the code expects them. That every
 * value is the reference's is ModelCatalogTest's (deploy), against the reference's document.
 */
class ModelCatalogResourceTest {

    @Test
    void jsonIsReadAsPlainUnmodifiableValuesWithEveryNumberADouble() {
        Object value = JsonText.parse("""
                {"text": "caf\\u00e9 \\"quoted\\"\\n", "numbers": [1, -0.5, 2e3], "flags": [true, false, null],
                 "nested": {"empty": {}, "none": []}}""");
        assertThat(value).isEqualTo(Map.of("text", "café \"quoted\"\n", "numbers", List.of(1.0, -0.5, 2000.0),
                "flags", Arrays.asList(true, false, null), "nested", Map.of("empty", Map.of(), "none", List.of())));
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) value;
        assertThat(((List<?>) map.get("numbers")).getFirst()).isInstanceOf(Double.class);
        assertThat(map.keySet()).containsExactly("text", "numbers", "flags", "nested");
        assertThatThrownBy(() -> map.put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void malformedJsonSaysWhere() {
        assertThatThrownBy(() -> JsonText.parse("{\"a\": 1,\n \"b\": [1,]}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line 2, column 10");
        assertThatThrownBy(() -> JsonText.parse("{\"a\": 1, \"a\": 2}")).hasMessageContaining("\"a\" given twice");
        assertThatThrownBy(() -> JsonText.parse("[1] 2")).hasMessageContaining("text after the value");
        assertThatThrownBy(() -> JsonText.parse("\"open")).hasMessageContaining("does not end");
        assertThatThrownBy(() -> JsonText.parse("tru")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aProvidersKeysBecomeItsFields() {
        ModelProvider provider = ModelCatalog.provider(JsonText.parse("""
                {"service": "tts", "id": "acme", "schema": "AcmeTTSConfiguration", "fields": [
                  {"name": "api_key", "type": "key", "required": true},
                  {"name": "speed", "type": "number", "nullable": true, "default": 1.0, "exclusiveMinimum": 0.0,
                   "maximum": 4.0, "description": "How fast.", "examples": ["1.0"], "hints": {"multiline": true}},
                  {"name": "mode", "type": "options", "enum": ["a", "b"]}]}"""));
        assertThat(provider).isEqualTo(new ModelProvider(ModelService.TTS, "acme", "AcmeTTSConfiguration", null,
                List.of(new ModelField("api_key", Type.KEY, true, false, null, null, false, null, null, true, null,
                                null, null),
                        new ModelField("speed", Type.NUMBER, false, true, 1.0, 0.0, true, 4.0, null, false, "How fast.",
                                List.of("1.0"), Map.of("multiline", true)),
                        new ModelField("mode", Type.OPTIONS, false, false, null, null, false, null, List.of("a", "b"),
                                false, null, null, null))));
    }

    @Test
    void aMisspeltOrMistypedKeyIsRefusedWithItsPlace() {
        assertThatThrownBy(() -> ModelCatalog.provider(JsonText.parse("""
                {"service": "llm", "id": "acme", "schema": "S", "fields": [
                  {"name": "model", "type": "text", "exmples": ["a"]}]}""")))
                .hasMessageContaining("provider llm acme field model: unknown key \"exmples\"");
        assertThatThrownBy(() -> ModelCatalog.provider(JsonText.parse("""
                {"service": "llm", "id": "acme", "schema": "S", "fields": [{"name": "n", "type": "txt"}]}""")))
                .hasMessageContaining("unknown type txt");
        assertThatThrownBy(() -> ModelCatalog.provider(JsonText.parse("""
                {"service": "llm", "id": "acme", "schema": "S", "fields": [{"name": "n", "type": "text",
                 "default": ["a"]}]}"""))).hasMessageContaining("a default is a text, a number or a boolean");
        assertThatThrownBy(() -> ModelCatalog.provider(JsonText.parse("""
                {"service": "voice", "id": "acme", "schema": "S", "fields": []}""")))
                .hasMessageContaining("unknown service");
    }

    @Test
    void theLoadedCatalogHasTheReferencesProvidersThenTheBuiltInOnes() {
        List<ModelProvider> all = ModelCatalog.all();
        assertThat(all.subList(all.size() - ModelCatalog.BUILT_IN.size(), all.size()))
                .isEqualTo(ModelCatalog.BUILT_IN);
        assertThat(ModelCatalog.BUILT_IN).containsExactly(ModelCatalog.SIMULATOR, ModelCatalog.SIMULATOR_STT,
                ModelCatalog.SIMULATOR_TTS);
        assertThat(ModelCatalog.BUILT_IN).allSatisfy(p -> assertThat(p.id()).isEqualTo("simulator"));
        assertThat(ModelCatalog.MANAGED.id()).isEqualTo("dograh");
        assertThat(all).doesNotContain(ModelCatalog.MANAGED);
        ModelField speed = ModelCatalog.MANAGED.field("speed").orElseThrow();
        assertThat(speed.defaultValue()).isInstanceOf(Double.class).isEqualTo(1.0);
        assertThat(speed.lower()).isEqualTo(0.5);
        assertThat(ModelCatalog.find(ModelService.LLM, "openai").orElseThrow().field("api_key").orElseThrow())
                .satisfies(key -> assertThat(key.secret()).isTrue())
                .satisfies(key -> assertThat(key.type()).isEqualTo(Type.KEY));
    }

    @Test
    void everyProviderHasTheTitleAPersonReadsNotItsSchemasName() {
        assertThat(ModelCatalog.all()).isNotEmpty().allSatisfy(p -> assertThat(p.title()).as(p.schemaName())
                .isNotEqualTo(p.schemaName()).doesNotEndWith("Configuration").doesNotEndWith("Service"));
        assertThat(ModelCatalog.BUILT_IN).allSatisfy(p -> assertThat(p.title()).isEqualTo("Simulator"));
        assertThat(ModelCatalog.MANAGED.title()).isEqualTo("Dograh");
    }
}
