package dev.voiceagent.domain.workflow;

import java.util.Locale;
import java.util.Optional;

public enum WorkflowStatus {
    ACTIVE, ARCHIVED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<WorkflowStatus> fromWireName(String value) {
        for (WorkflowStatus status : values()) {
            if (status.wireName().equals(value)) {
                return Optional.of(status);
            }
        }
        return Optional.empty();
    }
}
