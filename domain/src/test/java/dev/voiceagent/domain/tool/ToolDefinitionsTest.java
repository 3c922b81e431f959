package dev.voiceagent.domain.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.model.SettingsProblem;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ToolDefinitionsTest {

    private static Tool http(Map<String, Object> config) {
        Map<String, Object> definition = ToolDefinitions.normalized(ToolCategory.HTTP_API,
                Map.of("schema_version", 1, "type", "http_api", "config", config));
        return new Tool(1L, 7, "t-1", "Order status", null, ToolCategory.HTTP_API, "globe", "#3B82F6",
                ToolStatus.ACTIVE, definition, 1L, Instant.EPOCH, Instant.EPOCH);
    }

    @Test
    void aDefinitionIsCheckedForItsTypeAndEveryProblemIsReportedAtItsField() {
        InvalidToolDefinition refused = org.junit.jupiter.api.Assertions.assertThrows(InvalidToolDefinition.class,
                () -> ToolDefinitions.normalized(ToolCategory.HTTP_API, Map.of("schema_version", 2, "type", "http_api",
                        "config", Map.of("method", "FETCH", "url", "ftp://x", "timeout_ms", 30_001,
                                "parameters", List.of(Map.of("name", "1bad", "type", "string"))))));
        assertThat(refused.problems()).extracting(SettingsProblem::loc).contains(
                List.of("body", "definition", "schema_version"), List.of("body", "definition", "config", "method"),
                List.of("body", "definition", "config", "url"), List.of("body", "definition", "config", "timeout_ms"));
        InvalidToolDefinition mismatch = org.junit.jupiter.api.Assertions.assertThrows(InvalidToolDefinition.class,
                () -> ToolDefinitions.normalized(ToolCategory.END_CALL, Map.of("type", "calculator")));
        assertThat(mismatch.problems()).extracting(SettingsProblem::loc).containsExactly(List.of("body", "category"));
        // a static transfer needs its destination; a dynamic one its resolver
        assertThatThrownBy(() -> ToolDefinitions.normalized(ToolCategory.TRANSFER_CALL, Map.of("type", "transfer_call",
                "config", Map.of()))).isInstanceOf(InvalidToolDefinition.class).hasMessageContaining("destination");
        assertThatThrownBy(() -> ToolDefinitions.normalized(ToolCategory.TRANSFER_CALL, Map.of("type", "transfer_call",
                "config", Map.of("destination_source", "dynamic")))).hasMessageContaining("resolver");
    }

    @Test
    void defaultsAreFilledIn() {
        Map<String, Object> config = http(Map.of("method", "get", "url", "https://api.example.com")).config();
        assertThat(config).containsEntry("method", "GET").containsEntry("timeout_ms", 5_000)
                .containsEntry("parameters", List.of()).containsEntry("preset_parameters", List.of());
        assertThat(ToolDefinitions.normalized(ToolCategory.MCP, Map.of("type", "mcp", "config",
                Map.of("url", "https://mcp.example.com/mcp")))).extractingByKey("config")
                .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("transport", "streamable_http").containsEntry("timeout_secs", 30);
    }

    @Test
    void aRequestFillsItsTemplatesAndTheCredentialWinsOverAStaticHeader() {
        Tool tool = http(Map.of("method", "POST", "url", "https://api.example.com/orders/{{order_id}}/notes",
                "headers", Map.of("Authorization", "Bearer static", "X-Source", "{{channel}}"),
                "parameters", List.of(Map.of("name", "order_id", "type", "string", "description", "The order"),
                        Map.of("name", "count", "type", "number", "description", "How many", "required", false)),
                "preset_parameters", List.of(Map.of("name", "channel", "type", "string", "value_template",
                        "{{initial_context.channel}}"), Map.of("name", "city", "type", "string", "value_template",
                        "{{gathered_context.city}}")),
                "body_template", Map.of("note", Map.of("count", "{{count}}", "from", "{{channel}} in {{city}}"))));
        Credential bearer = new Credential(1L, 7, "c-1", "Key", null, CredentialType.BEARER_TOKEN,
                Map.of("token", "secret-token"), Instant.EPOCH, Instant.EPOCH);
        HttpToolRequest request = HttpToolRequest.plan(tool, Map.of("order_id", "A/1", "count", 3), null,
                Map.of("initial_context", Map.of("channel", "phone"), "gathered_context", Map.of("city", "Lyon")),
                bearer);
        assertThat(request.url()).isEqualTo("https://api.example.com/orders/A%2F1/notes");
        assertThat(request.headers()).containsEntry("Authorization", "Bearer secret-token")
                .containsEntry("X-Source", "phone");
        assertThat(request.shownHeaders()).containsEntry("Authorization", "********");
        assertThat(request.body()).isEqualTo(Map.of("note", Map.of("count", 3, "from", "phone in Lyon")));
        assertThatThrownBy(() -> HttpToolRequest.plan(tool, Map.of(), null, Map.of(), null))
                .isInstanceOf(DomainRuleViolation.class).hasMessageContaining("order_id");
    }

    @Test
    void aCredentialSentBackMaskedKeepsItsSecret() {
        Credential stored = new Credential(1L, 7, "c-1", "Key", null, CredentialType.API_KEY,
                Map.of("header_name", "X-Key", "api_key", "sk-live-123456789"), Instant.EPOCH, Instant.EPOCH);
        Map<String, String> shown = stored.maskedData();
        assertThat(shown.get("api_key")).doesNotContain("123456789");
        assertThat(Credential.restore(CredentialType.API_KEY, shown, stored)).containsEntry("api_key",
                "sk-live-123456789");
        assertThatThrownBy(() -> new Credential(null, 7, "c-2", "K", null, CredentialType.CUSTOM_HEADER,
                Map.of("header_name", "Bad Header", "header_value", "v"), Instant.EPOCH, Instant.EPOCH))
                .hasMessageContaining("header_name");
        assertThatThrownBy(() -> new Credential(null, 7, "c-3", "K", null, CredentialType.BASIC_AUTH,
                Map.of("username", "u"), Instant.EPOCH, Instant.EPOCH)).hasMessageContaining("password");
    }
}
