package dev.voiceagent.application.call;

import dev.voiceagent.domain.telephony.ProviderConfiguration;

/**
 * What a gateway needs to place a call for a run: the run's organization and workflow name its media address (the
 * signed {@link VoiceRuntime#streamUrl}, the same for outbound and inbound calls).
 */
public record OutboundCall(ProviderConfiguration configuration, long runId, String from, String to,
        long organizationId, long workflowId, boolean detectMachine) {

    /** A call whose workflow does not ask the carrier to tell a person from a machine. */
    public OutboundCall(ProviderConfiguration configuration, long runId, String from, String to, long organizationId,
            long workflowId) {
        this(configuration, runId, from, to, organizationId, workflowId, false);
    }
}
