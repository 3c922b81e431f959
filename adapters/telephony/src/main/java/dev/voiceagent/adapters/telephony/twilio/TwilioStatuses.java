package dev.voiceagent.adapters.telephony.twilio;

import dev.voiceagent.domain.telephony.CallStatus;
import java.util.Optional;

/** Twilio's CallStatus values in our statuses; a completed call answered by a machine is voicemail. */
public final class TwilioStatuses {

    private TwilioStatuses() {
    }

    public static Optional<CallStatus> map(String callStatus, String answeredBy) {
        if (callStatus == null) {
            return Optional.empty();
        }
        return switch (callStatus) {
            case "queued", "initiated" -> Optional.of(CallStatus.INITIATED);
            case "ringing" -> Optional.of(CallStatus.RINGING);
            case "in-progress", "answered" -> Optional.of(CallStatus.IN_PROGRESS);
            case "completed" -> Optional.of(answeredBy != null && answeredBy.startsWith("machine")
                    ? CallStatus.VOICEMAIL : CallStatus.COMPLETED);
            case "busy" -> Optional.of(CallStatus.BUSY);
            case "no-answer" -> Optional.of(CallStatus.NO_ANSWER);
            case "failed" -> Optional.of(CallStatus.FAILED);
            case "canceled" -> Optional.of(CallStatus.CANCELED);
            default -> Optional.empty();
        };
    }
}
