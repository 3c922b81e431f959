package dev.voiceagent.domain.workflow;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** What a run leaves behind that can be shared by a public link: its recordings and its transcript. */
public enum RunArtifact {
    RECORDING, TRANSCRIPT, USER_RECORDING, BOT_RECORDING;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<RunArtifact> fromWireName(String name) {
        return Arrays.stream(values()).filter(a -> a.wireName().equals(name)).findFirst();
    }

    /** Where the run keeps it (an object-store key or a provider's URL), or null when it has none. */
    public String locationIn(WorkflowRun run) {
        return switch (this) {
            case RECORDING -> run.recordingUrl();
            case TRANSCRIPT -> run.transcriptUrl();
            case USER_RECORDING, BOT_RECORDING -> run.logs() == null ? null
                    : JsonTree.asString(run.logs().get(wireName() + "_url"));
        };
    }
}
