package dev.voiceagent.domain.telephony;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One dial of one number. Status reports move it forward only: a duplicate, late or out-of-order
 * report changes nothing and is acknowledged, so provider retries and reordering are harmless.
 */
public record CallAttempt(Long id, long organizationId, long runId, String providerCallId, CallStatus status,
        Instant startedAt, Instant answeredAt, Instant endedAt, Integer durationSeconds) {

    public CallAttempt {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(startedAt, "startedAt");
    }

    public static CallAttempt dialing(long organizationId, long runId, Instant now) {
        return new CallAttempt(null, organizationId, runId, null, CallStatus.INITIATED, now, null, null, null);
    }

    /** What a report did to the attempt. */
    public sealed interface Outcome {
        CallAttempt attempt();
    }

    /** The report moved the attempt forward. */
    public record Applied(CallAttempt attempt, CallStatus from) implements Outcome {
    }

    /** The report changed nothing (already in that state, already further, or already final). */
    public record Ignored(CallAttempt attempt, String reason) implements Outcome {
    }

    /**
     * Applies a provider's report. {@code reportedDuration} (seconds) is taken from the final report
     * when the provider gives one; otherwise it is measured from answer to end.
     */
    public Outcome report(CallStatus reported, Instant at, Integer reportedDuration) {
        if (reported == status) {
            return new Ignored(this, "duplicate");
        }
        if (status.isFinal()) {
            return new Ignored(this, "already " + status.wireName());
        }
        if (reported.stage() <= status.stage()) {
            return new Ignored(this, "out of order: " + reported.wireName() + " after " + status.wireName());
        }
        Instant answered = answeredAt == null && reported == CallStatus.IN_PROGRESS ? at : answeredAt;
        if (!reported.isFinal()) {
            return new Applied(new CallAttempt(id, organizationId, runId, providerCallId, reported, startedAt, answered,
                    null, null), status);
        }
        Integer duration = reportedDuration != null ? Integer.valueOf(Math.max(0, reportedDuration))
                : answered == null ? Integer.valueOf(0) : Integer.valueOf((int) Duration.between(answered, at).toSeconds());
        return new Applied(new CallAttempt(id, organizationId, runId, providerCallId, reported, startedAt, answered, at,
                duration), status);
    }

    public CallAttempt withProviderCallId(String callId) {
        return new CallAttempt(id, organizationId, runId, callId, status, startedAt, answeredAt, endedAt, durationSeconds);
    }
}
