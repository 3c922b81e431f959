package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.Principal;
import java.util.Map;
import java.util.Objects;

/** A partial update: null fields stay; clearInboundWorkflow and clearTrunk unset them. */
public record UpdatePhoneNumberCommand(Principal principal, long configurationId, long numberId, String label,
        Long inboundWorkflowId, boolean clearInboundWorkflow, Long trunkId, boolean clearTrunk, Boolean active, String countryCode,
        Map<String, Object> extraMetadata) {

    public UpdatePhoneNumberCommand {
        Objects.requireNonNull(principal, "principal");
    }
}
