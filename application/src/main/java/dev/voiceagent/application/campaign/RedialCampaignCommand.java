package dev.voiceagent.application.campaign;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.campaign.RetryConfig;
import java.util.ArrayList;
import java.util.List;

/** Redial the contacts of a completed campaign whose last call ended in voicemail, no answer or busy (as selected). */
public record RedialCampaignCommand(Principal principal, long campaignId, String name, boolean voicemail,
        boolean noAnswer, boolean busy, RetryConfig retryConfig) {

    public List<String> outcomes() {
        List<String> outcomes = new ArrayList<>();
        if (voicemail) {
            outcomes.add("voicemail");
        }
        if (noAnswer) {
            outcomes.add("no-answer");
        }
        if (busy) {
            outcomes.add("busy");
        }
        return List.copyOf(outcomes);
    }
}
