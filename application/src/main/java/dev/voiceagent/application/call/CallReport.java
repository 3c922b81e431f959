package dev.voiceagent.application.call;

import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import java.util.Objects;

/** A provider's status report for the call of a run, after its signature was verified. */
public record CallReport(Provider provider, long runId, String providerCallId, CallStatus status,
        Integer durationSeconds, String dedupKey) {

    public CallReport {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(dedupKey, "dedupKey");
    }
}
