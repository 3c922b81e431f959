package dev.voiceagent.domain.campaign;

/** A changed campaign and the log entry that explains the change (written in the same transaction). */
public record CampaignTransition(Campaign campaign, CampaignLogEntry entry) {
}
