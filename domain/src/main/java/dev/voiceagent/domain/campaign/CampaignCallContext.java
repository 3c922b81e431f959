package dev.voiceagent.domain.campaign;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a campaign's dial of one contact tells its run: the run's name, its initial context (the version's template
 * variables, the contact's row, then the campaign, provider, numbers and direction; on a retry, which attempt and
 * why) and, on a retry, the gathered context's tags.
 *
 * @param attempt the attempt's number, 1 for the first dial
 */
public record CampaignCallContext(String runName, Map<String, Object> initialContext,
        Map<String, Object> gatheredContext, int attempt) {

    public static CampaignCallContext of(Campaign campaign, DueContact contact, Map<String, Object> templateVariables,
            String provider, long telephonyConfigurationId, String callerNumber) {
        int attempt = contact.attempts() + 1;
        Map<String, Object> context = new HashMap<>();
        if (templateVariables != null) {
            context.putAll(templateVariables);
        }
        context.putAll(contact.context());
        context.put("campaign_id", campaign.id());
        context.put("provider", provider);
        context.put("source_uuid", Contact.sourceUuid(campaign.sourceId(), contact.rowNumber()));
        context.put("called_number", contact.phoneNumber());
        if (callerNumber != null) {
            context.put("caller_number", callerNumber);
        }
        context.put("direction", "outbound");
        context.put("telephony_configuration_id", telephonyConfigurationId);
        Map<String, Object> gathered = null;
        if (attempt > 1) {
            String reason = contact.lastOutcome() == null ? "unknown" : contact.lastOutcome().replace('-', '_');
            context.put("is_retry", true);
            context.put("retry_attempt", attempt - 1);
            context.put("retry_reason", reason);
            gathered = Map.of("call_tags", List.of("retry", "retry_reason_" + reason));
        }
        String name = "WR-CAMPAIGN-%d-%d-%d".formatted(campaign.id(), contact.rowNumber(), attempt);
        return new CampaignCallContext(name, context, gathered, attempt);
    }
}
