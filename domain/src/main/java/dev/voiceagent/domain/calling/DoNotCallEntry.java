package dev.voiceagent.domain.calling;

import java.time.Instant;
import java.util.Locale;

/** A number the organization must not call: added by hand, by an import, or by a run's disposition. */
public record DoNotCallEntry(String phoneNumber, Source source, String reason, Long workflowRunId, Instant createdAt) {

    public static final String SKIPPED = "skipped_do_not_call";

    public enum Source {
        MANUAL, IMPORT, DISPOSITION;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Source fromWireName(String value) {
            return valueOf(value.toUpperCase(Locale.ROOT));
        }
    }
}
