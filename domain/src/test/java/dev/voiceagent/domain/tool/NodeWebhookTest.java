package dev.voiceagent.domain.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeWebhookTest {

    private static final Map<String, Object> RUN = Map.of("workflow_run_id", 42L, "disposition", "XFER",
            "gathered_context", Map.of("email", "ann@example.com", "score", 7));

    @Test
    void theTemplateIsRenderedKeepingTypesAndTheRunsResultsAreTheDefaultBody() {
        HttpToolRequest request = NodeWebhook.plan(Map.of("endpoint_url", "https://crm.example.com/runs/{{workflow_run_id}}",
                "payload_template", Map.of("id", "{{workflow_run_id}}", "note", "run {{workflow_run_id}}: {{disposition}}",
                        "contact", Map.of("email", "{{gathered_context.email}}", "score", "{{gathered_context.score}}"),
                        "tags", List.of("{{disposition}}", "fixed"))), RUN, null);
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.url()).isEqualTo("https://crm.example.com/runs/42");
        assertThat(request.body()).containsEntry("id", 42L).containsEntry("note", "run 42: XFER")
                .containsEntry("contact", Map.of("email", "ann@example.com", "score", 7))
                .containsEntry("tags", List.of("XFER", "fixed"));
        assertThat(NodeWebhook.plan(Map.of("endpoint_url", "https://x.example"), RUN, null).body()).isEqualTo(RUN);
        assertThat(NodeWebhook.plan(Map.of("endpoint_url", "https://x.example", "http_method", "get"), RUN, null)
                .body()).isNull();
    }

    @Test
    void theCredentialsHeadersWinOverCustomOnesAndAreHidden() {
        Credential bearer = new Credential(null, 1, "11111111-1111-1111-1111-111111111111", "crm", null,
                CredentialType.BEARER_TOKEN, Map.of("token", "secret"), null, null);
        HttpToolRequest request = NodeWebhook.plan(Map.of("endpoint_url", "https://x.example", "custom_headers",
                List.of(Map.of("key", "Authorization", "value", "spoofed"), Map.of("key", "X-Run", "value",
                        "{{workflow_run_id}}"))), RUN, bearer);
        assertThat(request.headers()).containsEntry("Authorization", "Bearer secret").containsEntry("X-Run", "42");
        assertThat(request.hiddenHeaders()).containsExactly("Authorization");
    }

    @Test
    void aNodeWithoutAnAddressOrWithAnUnknownMethodIsRefused() {
        assertThat(NodeWebhook.enabled(Map.of("endpoint_url", " "))).isFalse();
        assertThat(NodeWebhook.enabled(Map.of("endpoint_url", "https://x.example", "enabled", false))).isFalse();
        assertThatThrownBy(() -> NodeWebhook.plan(Map.of("endpoint_url", "https://x.example", "http_method", "TRACE"),
                RUN, null)).isInstanceOf(DomainRuleViolation.class);
    }
}
