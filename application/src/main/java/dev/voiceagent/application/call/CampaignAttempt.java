package dev.voiceagent.application.call;

/** The campaign contact and attempt a call belongs to (unique per contact and attempt number). */
public record CampaignAttempt(long campaignId, long contactId, int attemptNumber) {
}
