package dev.voiceagent.application.call;

import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;

/**
 * A call coming in from a provider's inbound webhook: the number called finds its organization and the
 * workflow that answers it; the request must be signed by that number's provider account (a 403 otherwise);
 * a slot under the organization's limit is reserved and an inbound run created on the published version.
 */
public interface InboundCallUseCase {

    /**
     * @param details what the carrier can tell of the caller once the workflow is known (an external PBX's identity
     *        of the call, read from its headers), added to the run's initial context; null when nothing
     */
    record InboundCall(Provider provider, String calledNumber, String callerNumber, String providerCallId,
            SignatureCheck signature, CallerDetails details) {

        public InboundCall(Provider provider, String calledNumber, String callerNumber, String providerCallId,
                SignatureCheck signature) {
            this(provider, calledNumber, callerNumber, providerCallId, signature, null);
        }
    }

    /** Reads what the carrier knows of a caller, given the workflow that answers (best effort: a failure adds nothing). */
    @FunctionalInterface
    interface CallerDetails {

        /** Entries for the run's initial context; {@code leadHeaders} the workflow's external_pbx_lead_headers. */
        Uni<Map<String, Object>> read(long organizationId, List<String> leadHeaders);
    }

    /** What to tell the provider: stream the media to the runtime, or refuse the call (and why). */
    sealed interface Answer {

        /** The run's organization and workflow name its media address (what Asterisk's transport_data carries). */
        record Stream(long runId, String streamUrl, ProviderConfiguration configuration, long organizationId,
                long workflowId) implements Answer {
        }

        /**
         * reason: unknown_number, no_inbound_workflow, workflow_unavailable, no_voice_runtime, no_credits (the
         * organization's balance is exhausted where credits are enforced), busy.
         */
        record Reject(String reason, ProviderConfiguration configuration) implements Answer {
        }
    }

    Uni<Answer> answer(InboundCall call);
}
