package dev.voiceagent.application.call;

import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.smallrye.mutiny.Uni;

/**
 * A call coming in from a provider's inbound webhook: the number called finds its organization and the
 * workflow that answers it; the request must be signed by that number's provider account (a 403 otherwise);
 * a slot under the organization's limit is reserved and an inbound run created on the published version.
 */
public interface InboundCallUseCase {

    record InboundCall(Provider provider, String calledNumber, String callerNumber, String providerCallId,
            SignatureCheck signature) {
    }

    /** What to tell the provider: stream the media to the runtime, or refuse the call (and why). */
    sealed interface Answer {

        /** The run's organization and workflow name its media address (what Asterisk's transport_data carries). */
        record Stream(long runId, String streamUrl, ProviderConfiguration configuration, long organizationId,
                long workflowId) implements Answer {
        }

        /** reason: unknown_number, no_inbound_workflow, workflow_unavailable, no_voice_runtime, busy. */
        record Reject(String reason, ProviderConfiguration configuration) implements Answer {
        }
    }

    Uni<Answer> answer(InboundCall call);
}
