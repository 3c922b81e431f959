package dev.voiceagent.application.call;

import dev.voiceagent.application.shared.Principal;
import java.util.Map;
import java.util.Objects;

public record InitiateCallCommand(Principal principal, long workflowId, Long workflowRunId, String phoneNumber,
        Long telephonyConfigurationId, Long fromPhoneNumberId, boolean published, String runName,
        Map<String, Object> initialContext) {

    public InitiateCallCommand {
        Objects.requireNonNull(principal, "principal");
        initialContext = initialContext == null ? Map.of() : initialContext;
    }

    /** A test call from the editor: the draft (if any), named WR-TEL-OUT-########. */
    public InitiateCallCommand(Principal principal, long workflowId, Long workflowRunId, String phoneNumber,
            Long telephonyConfigurationId, Long fromPhoneNumberId) {
        this(principal, workflowId, workflowRunId, phoneNumber, telephonyConfigurationId, fromPhoneNumberId, false, null,
                null);
    }
}
