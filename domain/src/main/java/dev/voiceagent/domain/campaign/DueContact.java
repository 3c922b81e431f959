package dev.voiceagent.domain.campaign;

import java.util.Map;

/**
 * A campaign contact whose next attempt is due, as the dispatcher claimed it: its row, number and time zone, the
 * row's context for the run, how often it was dialed and with what last outcome, and {@code doNotCall} when its
 * number was on the organization's do-not-call list at the claim.
 */
public record DueContact(long id, int rowNumber, String phoneNumber, String timezone, Map<String, Object> context,
        int attempts, String lastOutcome, boolean doNotCall) {
}
