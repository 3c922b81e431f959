package dev.voiceagent.domain.telephony;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExternalPbxTest {

    private static final Map<String, Object> VICIDIAL = Map.of("type", "vicidial", "agent_api", Map.of("url",
            "https://vici.example.com/agc/api.php", "username", "api", "password", "agent-secret"), "non_agent_api",
            Map.of("url", "https://vici.example.com/vicidial/non_agent_api.php", "username", "api", "password",
                    "lead-secret", "source", "crm"), "timeout_seconds", 5);

    private static Map<String, Object> ari(Object external) {
        return external == null ? Map.of("ari_endpoint", "http://pbx:8088", "app_name", "agents", "app_password", "p")
                : Map.of("ari_endpoint", "http://pbx:8088", "app_name", "agents", "app_password", "p",
                        "external_pbx", external);
    }

    @Test
    void anAsteriskConfigurationTakesAVicidialAndKeepsItsFields() {
        var parsed = (ProviderConfiguration.Ari) ProviderConfigurations.parse(Provider.ARI, ari(VICIDIAL));
        assertThat(parsed.externalPbx().agentApi().source()).as("the default tag").isEqualTo("voiceagent");
        assertThat(parsed.externalPbx().nonAgentApi().source()).isEqualTo("crm");
        assertThat(parsed.externalPbx().timeoutSeconds()).isEqualTo(5);
        assertThat(ProviderConfigurations.parse(Provider.ARI, parsed.fields())).as("stored and read back")
                .isEqualTo(parsed);
        assertThat(((ProviderConfiguration.Ari) ProviderConfigurations.parse(Provider.ARI, ari(null))).externalPbx())
                .isNull();
        assertThat(ExternalPbx.parse(Map.of("agent_api", Map.of("url", "http://v/agc/api.php", "username", "u",
                "password", "p"), "non_agent_api", Map.of("url", "", "username", ""))).nonAgentApi())
                .as("an empty non-agent API is none").isNull();
    }

    @Test
    void aVicidialMissingWhatItNeedsIsRefusedWithTheField() {
        assertThatThrownBy(() -> ExternalPbx.parse(Map.of("type", "genesys"))).isInstanceOf(DomainRuleViolation.class)
                .hasMessageContaining("external_pbx.type");
        assertThatThrownBy(() -> ExternalPbx.parse(Map.of())).hasMessageContaining("external_pbx.agent_api");
        assertThatThrownBy(() -> ExternalPbx.parse(Map.of("agent_api", Map.of("url", "ftp://v", "username", "u",
                "password", "p")))).hasMessageContaining("agent_api.url must be an http(s) URL");
        assertThatThrownBy(() -> ExternalPbx.parse(Map.of("agent_api", Map.of("url", "http://v", "username", "u",
                "password", "p"), "non_agent_api", Map.of("url", "http://v")))).hasMessageContaining(
                "non_agent_api needs url, username and password");
        assertThatThrownBy(() -> ExternalPbx.parse(Map.of("agent_api", Map.of("url", "http://v", "username", "u",
                "password", "p"), "timeout_seconds", 31))).hasMessageContaining("between 1 and 30");
        assertThatThrownBy(() -> ExternalPbx.parse("vicidial")).hasMessageContaining("must be an object");
    }

    @Test
    void itsPasswordsAreMaskedOnOutputAndAMaskedOneSentBackKeepsTheStoredOne() {
        var stored = ProviderConfigurations.parse(Provider.ARI, ari(VICIDIAL)).fields();
        Map<String, Object> shown = ProviderConfigurations.masked(Provider.ARI, stored);
        @SuppressWarnings("unchecked")
        Map<String, Object> pbx = (Map<String, Object>) shown.get("external_pbx");
        assertThat(pbx.toString()).doesNotContain("agent-secret", "lead-secret");
        assertThat(((Map<?, ?>) pbx.get("agent_api")).get("password")).isEqualTo("********cret");
        Map<String, Object> restored = ProviderConfigurations.restored(Provider.ARI, shown, stored);
        var parsed = (ProviderConfiguration.Ari) ProviderConfigurations.parse(Provider.ARI, restored);
        assertThat(parsed.externalPbx().agentApi().password()).isEqualTo("agent-secret");
        assertThat(parsed.externalPbx().nonAgentApi().password()).isEqualTo("lead-secret");
        assertThat(parsed.appPassword()).isEqualTo("p");
    }

    @Test
    void theWorkflowsMappingsPickGatheredValuesAndSkipWhatVicidialWouldNotTake() {
        Map<String, Object> gathered = Map.of("call_disposition", "end_call_node", "customer", Map.of("plan", " gold "),
                "extracted_variables", Map.of("email", "ada@example.com"), "blank", "  ");
        Map<String, Object> configurations = Map.of(ExternalPbxCalls.FIELD_MAPPINGS, List.of(
                Map.of("context_path", "gathered_context.call_disposition", "destination_field", "ai_outcome"),
                Map.of("context_path", "customer.plan", "destination_field", "plan"),
                Map.of("context_path", "email", "destination_field", "email"),
                Map.of("context_path", "blank", "destination_field", "blank"),
                Map.of("context_path", "call_disposition", "destination_field", "lead_id"),
                Map.of("context_path", "call_disposition", "destination_field", "2bad")));
        assertThat(ExternalPbxCalls.fields(gathered, configurations)).containsExactly(
                Map.entry("ai_outcome", "end_call_node"), Map.entry("plan", "gold"),
                Map.entry("email", "ada@example.com"));
        assertThat(ExternalPbxCalls.leadHeaders(Map.of(ExternalPbxCalls.LEAD_HEADERS, List.of("first_name",
                "bad-name", "first_name", 7)))).containsExactly("first_name");
        assertThat(ExternalPbxCalls.identity(Map.of("external_pbx_call", Map.of("type", "vicidial")))).isPresent();
        assertThat(ExternalPbxCalls.identity(Map.of())).isEmpty();
    }
}
