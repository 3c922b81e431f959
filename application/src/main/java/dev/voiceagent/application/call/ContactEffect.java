package dev.voiceagent.application.call;

import dev.voiceagent.domain.campaign.CampaignLogEntry;
import java.time.Instant;

/**
 * What a campaign call's final outcome does to its contact, written in the same transaction as the
 * call: retried at {@code retryAt}, or finished (counted in processed_rows, and in failed_rows unless
 * it succeeded). {@code log} (optional) is appended to the campaign's log with it.
 */
public record ContactEffect(CampaignAttempt attempt, Instant retryAt, boolean succeeded, String failureReason,
        CampaignLogEntry log) {

    public boolean finished() {
        return retryAt == null;
    }
}
