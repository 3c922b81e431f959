package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.ResourceNotFoundException;
import io.smallrye.mutiny.Uni;

/** Find a number of a configuration of the caller's organization. */
final class PhoneNumbers {

    static final String NOT_FOUND = "Phone number not found";

    private PhoneNumbers() {
    }

    static Uni<PhoneNumberView> find(TelephonyConfigurationRepository configurations, PhoneNumberRepository numbers,
            long organizationId, long configurationId, long numberId) {
        return TelephonyConfigurations.find(configurations, organizationId, configurationId)
                .chain(view -> numbers.find(organizationId, configurationId, numberId))
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND)));
    }

    /** The workflow that answers a number must be one of the organization's (404 otherwise); null is none. */
    static Uni<Void> checkInboundWorkflow(KnownWorkflows workflows, long organizationId, Long workflowId) {
        if (workflowId == null) {
            return Uni.createFrom().voidItem();
        }
        return workflows.exists(organizationId, workflowId).invoke(found -> {
            if (!found) {
                throw new ResourceNotFoundException("Workflow not found");
            }
        }).replaceWithVoid();
    }
}
