package dev.voiceagent.adapters.telephony.plivo;

import dev.voiceagent.domain.telephony.CallStatus;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Plivo's (and Vobiz's) call statuses in ours: its webhooks' CallStatus, and a finished call's record. */
public final class PlivoStatuses {

    private PlivoStatuses() {
    }

    /** A webhook's CallStatus (ring, answer and hang-up URLs). */
    public static Optional<CallStatus> map(String callStatus) {
        if (callStatus == null) {
            return Optional.empty();
        }
        return switch (callStatus.strip().toLowerCase(Locale.ROOT)) {
            case "ringing", "ring", "early-media" -> Optional.of(CallStatus.RINGING);
            case "in-progress", "answered" -> Optional.of(CallStatus.IN_PROGRESS);
            case "completed", "hangup" -> Optional.of(CallStatus.COMPLETED);
            case "busy" -> Optional.of(CallStatus.BUSY);
            case "no-answer", "timeout" -> Optional.of(CallStatus.NO_ANSWER);
            case "cancel", "canceled", "cancelled" -> Optional.of(CallStatus.CANCELED);
            case "failed", "rejected" -> Optional.of(CallStatus.FAILED);
            default -> Optional.empty();
        };
    }

    /** A finished call's record: its {@code call_state} (ANSWER, BUSY, NO_ANSWER, CANCEL, FAILED, ...). */
    static Optional<CallStatus> ofRecord(Map<String, Object> record) {
        Object state = record.get("call_state");
        if (state == null) {
            return Optional.empty();
        }
        return switch (String.valueOf(state).toUpperCase(Locale.ROOT).replace("_", "")) {
            case "ANSWER", "ANSWERED", "COMPLETED" -> Optional.of(CallStatus.COMPLETED);
            case "BUSY" -> Optional.of(CallStatus.BUSY);
            case "NOANSWER", "TIMEOUT" -> Optional.of(CallStatus.NO_ANSWER);
            case "CANCEL", "CANCELED", "CANCELLED" -> Optional.of(CallStatus.CANCELED);
            case "FAILED", "CONGESTION", "REJECTED" -> Optional.of(CallStatus.FAILED);
            default -> Optional.empty();
        };
    }
}
