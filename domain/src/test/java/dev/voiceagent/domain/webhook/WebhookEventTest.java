package dev.voiceagent.domain.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignTransition;
import dev.voiceagent.domain.tool.NodeWebhook;
import dev.voiceagent.domain.webhook.WebhookEvent.CallStatusChanged;
import dev.voiceagent.domain.webhook.WebhookEvent.CampaignStateChanged;
import dev.voiceagent.domain.webhook.WebhookEvent.ContactFinished;
import dev.voiceagent.domain.webhook.WebhookEvent.ContactSkipped;
import dev.voiceagent.domain.webhook.WebhookEvent.RunCompleted;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import dev.voiceagent.domain.workflow.WorkflowRun;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WebhookEventTest {

    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    @Test
    void theTypesAreDerivedFromTheKindsInTheDocumentedOrder() {
        assertThat(WebhookEvents.TYPES).containsExactly("campaign.started", "campaign.paused", "campaign.resumed",
                "campaign.circuit_open", "campaign.completed", "campaign.failed", "contact.completed",
                "contact.failed", "contact.skipped", "run.completed", "call.status");
    }

    @Test
    void aCampaignsStateChangesRaiseTheirEventAndOtherLogEventsNone() {
        Campaign created = Campaign.create(1, 2, "Spring promo", 3, null, "campaigns/1/x.csv", null, null, null, null,
                NOW).withId(9);
        CampaignTransition started = created.start(NOW);
        assertThat(started.events()).singleElement().isInstanceOfSatisfying(CampaignStateChanged.class, e -> {
            assertThat(e.type()).isEqualTo("campaign.started");
            assertThat(e.at()).isEqualTo(NOW);
            assertThat(e.data()).containsExactly(Map.entry("campaign_id", 9L), Map.entry("name", "Spring promo"),
                    Map.entry("state", "syncing"), Map.entry("previous_state", "created"),
                    Map.entry("message", "Campaign started; loading contacts"),
                    Map.entry("details", Map.of("from", "created", "to", "syncing")));
        });
        Campaign running = started.campaign().contactsLoaded(3, NOW).campaign();
        assertThat(started.campaign().contactsLoaded(3, NOW).events()).as("contacts_loaded raises none").isEmpty();
        assertThat(running.pause(NOW, null).events()).extracting(WebhookEvent::type).containsExactly("campaign.paused");
        assertThat(running.update("Renamed", null, null, null, null, NOW).events()).as("updated raises none").isEmpty();
        assertThat(running.complete(NOW).events()).extracting(WebhookEvent::type)
                .containsExactly("campaign.completed");
        assertThat(running.fail(NOW, "failed", "x", null).events()).extracting(WebhookEvent::type)
                .containsExactly("campaign.failed");
        assertThat(CampaignStateChanged.of("circuit_breaker_tripped", NOW, 9L, "n", "paused", "running", "m", null))
                .get().extracting(WebhookEvent::type).isEqualTo("campaign.circuit_open");
    }

    @Test
    void contactAndCallEventsCarryTheirDataInTheReceiversOrder() {
        assertThat(new ContactFinished(NOW, 9, 11, 2, 70, "completed", true).type()).isEqualTo("contact.completed");
        ContactFinished failed = new ContactFinished(NOW, 9, 11, 2, 70, "no-answer", false);
        assertThat(failed.type()).isEqualTo("contact.failed");
        assertThat(new ArrayList<>(failed.data().keySet())).containsExactly("campaign_id", "contact_id", "attempt",
                "workflow_run_id", "outcome");
        assertThat(new ContactSkipped(NOW, 9, Map.of("contact_id", 11L, "reason", "do_not_call")).data())
                .containsEntry("campaign_id", 9L).containsEntry("contact_id", 11L)
                .containsEntry("reason", "do_not_call");
        CallStatusChanged single = new CallStatusChanged(NOW, 70, 5, "completed", "in-progress", 42, "+15550100",
                null);
        assertThat(single.type()).isEqualTo("call.status");
        assertThat(single.data()).doesNotContainKey("campaign_id").containsEntry("duration_seconds", 42);
        assertThat(new CallStatusChanged(NOW, 70, 5, "ringing", "initiated", null, "+15550100", 9L).data())
                .containsEntry("campaign_id", 9L);
    }

    @Test
    void aCompletedRunCarriesItsResultsAndTheEnabledWebhookNodesItTriggers() {
        WorkflowDefinition definition = WorkflowDefinition.of(Map.of("nodes", List.of(
                Map.of("id", "start", "type", "startCall", "data", Map.of()),
                Map.of("id", "crm", "type", "webhook", "data", Map.of("endpoint_url", "https://crm.example/x")),
                Map.of("id", "off", "type", "webhook", "data", Map.of("endpoint_url", "https://x.example",
                        "enabled", false)),
                Map.of("id", "blank", "type", "webhook", "data", Map.of("endpoint_url", " ")),
                Map.of("id", 7, "type", "webhook", "data", Map.of("endpoint_url", "https://y.example"))),
                "edges", List.of()));
        assertThat(NodeWebhook.triggered(definition)).containsExactly("crm", "7");
        WorkflowRun run = new WorkflowRun(5L, 1, 2, 3, "WR-1", "simulator", "outbound", "completed", true, null, null,
                Map.of("call_duration_seconds", 42), null, Map.of(), Map.of("call_disposition", "XFER"), null, null,
                null, NOW);
        RunCompleted completed = new RunCompleted(NOW, run, NodeWebhook.triggered(definition));
        assertThat(completed.type()).isEqualTo("run.completed");
        assertThat(completed.data()).isEqualTo(run.results());
        assertThat(completed.webhookNodeIds()).containsExactly("crm", "7");
    }
}
