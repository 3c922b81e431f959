package dev.voiceagent.application.call;

import dev.voiceagent.domain.telephony.CallAttempt;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.workflow.WorkflowRun;

/**
 * A call with the run it belongs to and the provider that carries it; {@code campaign} is set for a
 * campaign's dial (null for single calls).
 */
public record CallRecord(CallAttempt attempt, WorkflowRun run, Provider provider, Long configurationId,
        String fromNumber, String toNumber, CampaignAttempt campaign) {

    public CallRecord(CallAttempt attempt, WorkflowRun run, Provider provider, Long configurationId, String fromNumber,
            String toNumber) {
        this(attempt, run, provider, configurationId, fromNumber, toNumber, null);
    }
}
