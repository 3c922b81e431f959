package dev.voiceagent.adapters.telephony.cloudonix;

import dev.voiceagent.domain.telephony.CallStatus;
import java.util.Locale;
import java.util.Optional;

/**
 * Cloudonix's call states in ours: a session's status (its notifications and the session API: new, processing,
 * ringing, connected, answer, noanswer, busy, nocredit, cancel, external, error, case as it comes; Cloudonix publishes
 * no list: these are the values its own code handles).
 */
public final class CloudonixStatuses {

    private CloudonixStatuses() {
    }

    /**
     * A session's status; a session that ended ({@code ended}: its callEndTime set) after it was answered is
     * completed.
     */
    public static Optional<CallStatus> ofSession(String status, boolean answered, boolean ended) {
        String s = status == null ? "" : status.strip().toLowerCase(Locale.ROOT);
        if (ended && answered) {
            return Optional.of(CallStatus.COMPLETED);
        }
        return switch (s) {
            case "ringing" -> Optional.of(CallStatus.RINGING);
            case "connected", "answer", "answered" -> Optional.of(CallStatus.IN_PROGRESS);
            case "busy" -> Optional.of(CallStatus.BUSY);
            case "noanswer", "no-answer" -> Optional.of(CallStatus.NO_ANSWER);
            case "cancel", "canceled", "cancelled" -> Optional.of(CallStatus.CANCELED);
            case "nocredit", "error", "failed" -> Optional.of(CallStatus.FAILED);
            default -> Optional.empty(); // new, processing, external, and whatever Cloudonix adds later
        };
    }
}
