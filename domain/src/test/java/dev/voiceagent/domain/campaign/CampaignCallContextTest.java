package dev.voiceagent.domain.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CampaignCallContextTest {

    private static final Instant NOW = Instant.parse("2026-11-23T15:00:00Z");
    private static final Campaign CAMPAIGN = new Campaign(9L, 1, "Promo", 3, 2L, 4L, "csv", "campaigns/1/x.csv",
            CampaignState.RUNNING, 10, 0, 0, RetryConfig.DEFAULT, 5, null, null, null, null, NOW, NOW, null, List.of());

    @Test
    void aFirstDialCarriesTheTemplateTheRowAndTheCallsFacts() {
        DueContact contact = new DueContact(11, 4, "+12125550101", null,
                Map.of("first_name", "Ann", "campaign_id", "spoofed"), 0, null, false);
        CampaignCallContext call = CampaignCallContext.of(CAMPAIGN, contact, Map.of("greeting", "Hi", "first_name",
                "there"), "twilio", 4, "+12125550199");
        assertThat(call.runName()).isEqualTo("WR-CAMPAIGN-9-4-1");
        assertThat(call.attempt()).isEqualTo(1);
        assertThat(call.initialContext()).containsEntry("greeting", "Hi").containsEntry("first_name", "Ann")
                .containsEntry("campaign_id", 9L).containsEntry("provider", "twilio")
                .containsEntry("called_number", "+12125550101").containsEntry("caller_number", "+12125550199")
                .containsEntry("direction", "outbound").containsEntry("telephony_configuration_id", 4L)
                .containsEntry("source_uuid", Contact.sourceUuid("campaigns/1/x.csv", 4))
                .doesNotContainKey("is_retry");
        assertThat(call.gatheredContext()).isNull();
    }

    @Test
    void aRetrySaysWhichAttemptAndWhyAndTagsTheRun() {
        DueContact contact = new DueContact(11, 4, "+12125550101", null, Map.of(), 2, "no-answer", false);
        CampaignCallContext call = CampaignCallContext.of(CAMPAIGN, contact, null, "telnyx", 4, null);
        assertThat(call.runName()).isEqualTo("WR-CAMPAIGN-9-4-3");
        assertThat(call.initialContext()).containsEntry("is_retry", true).containsEntry("retry_attempt", 2)
                .containsEntry("retry_reason", "no_answer").doesNotContainKey("caller_number");
        assertThat(call.gatheredContext()).isEqualTo(Map.of("call_tags", List.of("retry", "retry_reason_no_answer")));
    }
}
