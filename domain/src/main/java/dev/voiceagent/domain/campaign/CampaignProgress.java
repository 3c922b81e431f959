package dev.voiceagent.domain.campaign;

import java.time.Instant;
import java.util.Objects;

/**
 * Where a campaign stands: how many contacts reached a final state, how many of those ended in a
 * failed call (failed, error, busy or no-answer as the last outcome), and the state of the source import.
 *
 * @param rateLimit the number of calls the dispatcher may have in flight for this campaign (this
 *                  engine limits concurrency, not dials per second)
 */
public record CampaignProgress(
        long campaignId,
        CampaignState state,
        int totalRows,
        long processedRows,
        long failedCalls,
        double progressPercentage,
        SourceSync sourceSync,
        int rateLimit,
        Instant startedAt,
        Instant completedAt) {

    /** The import of the contact source: pending, in_progress, completed or failed. */
    public record SourceSync(String status, Instant lastSyncedAt, String error) {

        public SourceSync {
            Objects.requireNonNull(status, "status");
        }
    }

    public static CampaignProgress of(Campaign campaign, long processed, long failed, int rateLimit) {
        int total = campaign.totalRows() == null ? 0 : campaign.totalRows();
        double percentage = total == 0 ? 0.0 : Math.min(100.0, processed * 100.0 / total);
        return new CampaignProgress(campaign.id(), campaign.state(), total, processed, failed,
                Math.round(percentage * 100.0) / 100.0, sourceSync(campaign), rateLimit, campaign.startedAt(),
                campaign.completedAt());
    }

    /** Derived from the campaign's log, where every import outcome is written with the state change. */
    static SourceSync sourceSync(Campaign campaign) {
        if (campaign.parentCampaignId() != null && campaign.startedAt() != null) {
            return new SourceSync("completed", campaign.startedAt(), null);
        }
        for (int i = campaign.logs().size() - 1; i >= 0; i--) {
            CampaignLogEntry entry = campaign.logs().get(i);
            if (entry.event().equals("source_sync_failed")) {
                Object error = entry.details() == null ? null : entry.details().get("error");
                return new SourceSync("failed", null, error == null ? entry.message() : error.toString());
            }
            if (entry.details() != null && entry.details().containsKey("total_rows")) {
                return new SourceSync("completed", entry.ts(), null);
            }
        }
        return new SourceSync(campaign.startedAt() == null ? "pending" : "in_progress", null, null);
    }
}
