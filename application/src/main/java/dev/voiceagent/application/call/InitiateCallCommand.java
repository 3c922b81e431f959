package dev.voiceagent.application.call;

import dev.voiceagent.application.auth.Principal;
import java.util.Objects;

public record InitiateCallCommand(Principal principal, long workflowId, Long workflowRunId, String phoneNumber,
        Long telephonyConfigurationId, Long fromPhoneNumberId) {

    public InitiateCallCommand {
        Objects.requireNonNull(principal, "principal");
    }
}
