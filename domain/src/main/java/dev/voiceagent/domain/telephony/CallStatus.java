package dev.voiceagent.domain.telephony;

import java.util.Locale;
import java.util.Optional;

/** The normalized status of a call, whatever provider reported it. */
public enum CallStatus {
    INITIATED(0), RINGING(1), IN_PROGRESS(2),
    COMPLETED(3), BUSY(3), NO_ANSWER(3), VOICEMAIL(3), FAILED(3), CANCELED(3), ERROR(3);

    private final int stage;

    CallStatus(int stage) {
        this.stage = stage;
    }

    /** initiated, ringing, in-progress, ..., no-answer: the wire form. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static Optional<CallStatus> fromWireName(String value) {
        if (value == null) {
            return Optional.empty();
        }
        String normalized = value.strip().toLowerCase(Locale.ROOT).replace('_', '-');
        if (normalized.equals("answered")) {
            return Optional.of(IN_PROGRESS);
        }
        for (CallStatus status : values()) {
            if (status.wireName().equals(normalized)) {
                return Optional.of(status);
            }
        }
        return Optional.empty();
    }

    /** Initiated < ringing < in progress < any final status. */
    public int stage() {
        return stage;
    }

    public boolean isFinal() {
        return stage == 3;
    }

    /** Counts against a campaign's circuit breaker: the call could not be made. */
    public boolean isFailure() {
        return this == FAILED || this == ERROR;
    }

    /** The contact was reached by nobody; a retry may help. */
    public boolean isUnanswered() {
        return this == BUSY || this == NO_ANSWER || this == VOICEMAIL;
    }
}
