package dev.voiceagent.adapters.telephony.vonage;

import dev.voiceagent.domain.telephony.CallStatus;
import java.util.Optional;

/**
 * Vonage's call statuses in ours, as the reference maps them: started, ringing, answered, completed; busy, failed;
 * timeout and unanswered no-answer; cancelled no-answer too (Vonage says it of a call not answered before the ringing
 * ended) and rejected busy (the callee's side refused it).
 */
public final class VonageStatuses {

    private VonageStatuses() {
    }

    public static Optional<CallStatus> map(String status) {
        if (status == null) {
            return Optional.empty();
        }
        return switch (status) {
            case "started" -> Optional.of(CallStatus.INITIATED);
            case "ringing" -> Optional.of(CallStatus.RINGING);
            case "answered" -> Optional.of(CallStatus.IN_PROGRESS);
            case "completed", "complete", "disconnected" -> Optional.of(CallStatus.COMPLETED);
            case "busy", "rejected" -> Optional.of(CallStatus.BUSY);
            case "failed" -> Optional.of(CallStatus.FAILED);
            case "timeout", "unanswered", "cancelled" -> Optional.of(CallStatus.NO_ANSWER);
            default -> Optional.empty(); // human, machine (detection's), input, record, transfer, ...
        };
    }
}
