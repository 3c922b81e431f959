package dev.voiceagent.adapters.telephony.telnyx;

import dev.voiceagent.domain.telephony.CallStatus;
import java.util.Optional;

/** Telnyx Call Control event types (and hangup causes) in our statuses. */
public final class TelnyxEvents {

    private TelnyxEvents() {
    }

    public static Optional<CallStatus> map(String eventType, String hangupCause) {
        if (eventType == null) {
            return Optional.empty();
        }
        return switch (eventType) {
            case "call.initiated" -> Optional.of(CallStatus.INITIATED);
            case "call.ringing" -> Optional.of(CallStatus.RINGING);
            case "call.answered" -> Optional.of(CallStatus.IN_PROGRESS);
            case "call.hangup" -> Optional.of(hangup(hangupCause));
            default -> Optional.empty();
        };
    }

    private static CallStatus hangup(String cause) {
        if (cause == null) {
            return CallStatus.COMPLETED;
        }
        return switch (cause) {
            case "normal_clearing" -> CallStatus.COMPLETED;
            case "busy", "user_busy" -> CallStatus.BUSY;
            case "no_answer", "timeout", "no_user_response" -> CallStatus.NO_ANSWER;
            case "originator_cancel" -> CallStatus.CANCELED;
            default -> CallStatus.FAILED; // call_rejected, unallocated_number, ...
        };
    }
}
