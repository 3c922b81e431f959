package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.Principal;
import java.util.Map;
import java.util.Objects;

public record AddPhoneNumberCommand(Principal principal, long configurationId, String address, String countryCode,
        String label, Long inboundWorkflowId, Long trunkId, boolean active, boolean defaultCaller, Map<String, Object> extraMetadata) {

    public AddPhoneNumberCommand {
        Objects.requireNonNull(principal, "principal");
    }
}
