package dev.voiceagent.application.call;

import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import java.util.Objects;

/**
 * A provider's status report for the call of a run, after its signature was verified.
 *
 * @param requestId the id the provider gave when the call was placed, where it names the call by another id once it
 *        rings (Plivo's and Vobiz's RequestUUID, then CallUUID); null elsewhere. A report naming both is the call's
 *        whether the call is still known by its request id or already by its call id, and from it on the call is
 *        known by its call id (what hanging up takes).
 */
public record CallReport(Provider provider, long runId, String providerCallId, CallStatus status,
        Integer durationSeconds, String dedupKey, String requestId) {

    public CallReport {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(dedupKey, "dedupKey");
    }

    public CallReport(Provider provider, long runId, String providerCallId, CallStatus status, Integer durationSeconds,
            String dedupKey) {
        this(provider, runId, providerCallId, status, durationSeconds, dedupKey, null);
    }

    /** Whether this report is of the call the provider knows as {@code knownId} (null: any). */
    public boolean names(String knownId) {
        return providerCallId == null || knownId == null || knownId.equals(providerCallId)
                || knownId.equals(requestId);
    }

    /** Whether the call known as {@code knownId} is known by this report's call id from now on. */
    public boolean renames(String knownId) {
        return knownId != null && providerCallId != null && knownId.equals(requestId)
                && !knownId.equals(providerCallId);
    }
}
