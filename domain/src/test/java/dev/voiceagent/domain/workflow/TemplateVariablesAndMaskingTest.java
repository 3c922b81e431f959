package dev.voiceagent.domain.workflow;

import static dev.voiceagent.domain.workflow.Definitions.data;
import static dev.voiceagent.domain.workflow.Definitions.edges;
import static dev.voiceagent.domain.workflow.Definitions.nodes;
import static dev.voiceagent.domain.workflow.Definitions.valid;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TemplateVariablesAndMaskingTest {

    @Test
    void requiredVariablesComeFromPromptsGreetingAndTransitionSpeech() {
        WorkflowDefinition definition = WorkflowDefinition.of(valid(d -> {
            data(edges(d).get(0)).put("transition_speech", "One moment {{ agent_name }}");
            data(nodes(d).get(1)).put("prompt",
                    "Use {{product}}, not {{customer.address}}, {{tier | default}}, {{campaign_id}}, {{provider}} or {{source_uuid}}");
            data(nodes(d).get(1)).put("extraction_prompt", "{{ignored_field}}");
        }));
        assertThat(TemplateVariables.requiredBy(definition))
                .containsExactly("agent_name", "company", "first_name", "product");
    }

    @Test
    void renderFillsKnownValuesAndLeavesTheRest() {
        assertThat(TemplateVariables.render("Hi {{ name }}, about {{topic}}", Map.of("name", "Ann")))
                .isEqualTo("Hi Ann, about {{topic}}");
        assertThat(TemplateVariables.referencedIn("{{a}} {{b.c}} {{d|x}}")).containsExactly("a");
    }

    @Test
    void whatACallSaysHasEveryReferenceResolvedAsTheReferenceDoesAndNeverBraces() {
        Map<String, Object> values = Map.of("first_name", "Ann", "empty", "", "customer",
                Map.of("address", Map.of("city", "Lyon")), "page_url", "https://acme.test/orders");
        assertThat(TemplateVariables.speak("Hi {{ first_name }}, this is {{company_name}}.", values))
                .isEqualTo("Hi Ann, this is .");
        assertThat(TemplateVariables.speak("{{company_name | Acme}} {{empty | there}} {{first_name | nobody}}", values))
                .isEqualTo("Acme there Ann");
        assertThat(TemplateVariables.speak("{{agent_name | fallback:Sam}} {{agent_name | fallback}}", values))
                .isEqualTo("Sam Agent Name");
        assertThat(TemplateVariables.speak("{{customer.address.city}} {{initial_context.page_url}}"
                + " {{gathered_context.first_name}} {{customer.phone}}", values))
                .isEqualTo("Lyon https://acme.test/orders Ann ");
        assertThat(TemplateVariables.speak("No variables here.", values)).isEqualTo("No variables here.");
        assertThat(TemplateVariables.speak(null, values)).isNull();
    }

    @Test
    void theReferencesTimeBuiltInsSayTheTimeAndTheWeekdayInTheZoneAsked() {
        java.time.Instant now = java.time.Instant.parse("2026-11-29T23:30:00Z"); // a Sunday in UTC, Monday in Tokyo
        assertThat(TemplateVariables.speak("{{current_time}} / {{current_weekday}}", Map.of(), now))
                .isEqualTo("2026-11-29 23:30:00 UTC / Sunday");
        assertThat(TemplateVariables.speak("It is {{current_time_Asia/Tokyo}}, a {{current_weekday}}.", Map.of(), now))
                .as("the weekday in the zone the text asked the time in").isEqualTo("It is 2026-11-30 08:30:00 JST, a Monday.");
        assertThat(TemplateVariables.speak("{{current_weekday_America/New_York}} {{current_time_Nowhere/Else}}.",
                Map.of(), now)).isEqualTo("Sunday .");
        assertThat(TemplateVariables.speak("{{current_weekday}}", Map.of("current_weekday", "Funday"), now))
                .as("a value given wins").isEqualTo("Funday");
    }

    @Test
    void secretsAreMaskedButTheLastFourAndMaskedValuesSentBackKeepTheStoredOnes() {
        Map<String, Object> stored = Map.of("llm", Map.of("api_key", "sk-live-123456789", "model", "gpt"),
                "qa", List.of(Map.of("qa_api_key", "abcdefgh")), "password", "hunter22", "max_tokens", 100);
        @SuppressWarnings("unchecked")
        Map<String, Object> masked = (Map<String, Object>) SecretMasking.masked(stored);
        assertThat(masked).containsEntry("password", "****er22").containsEntry("max_tokens", 100);
        assertThat(masked.get("llm")).isEqualTo(Map.of("api_key", "*************6789", "model", "gpt"));
        assertThat(masked.get("qa")).isEqualTo(List.of(Map.of("qa_api_key", "****efgh")));

        Map<String, Object> sentBack = Map.of("llm", Map.of("api_key", "*************6789", "model", "gpt-4"),
                "qa", List.of(Map.of("qa_api_key", "new-key-0000")), "password", "****er22", "max_tokens", 100);
        assertThat(SecretMasking.restore(sentBack, stored)).isEqualTo(Map.of(
                "llm", Map.of("api_key", "sk-live-123456789", "model", "gpt-4"),
                "qa", List.of(Map.of("qa_api_key", "new-key-0000")), "password", "hunter22", "max_tokens", 100));
    }
}
