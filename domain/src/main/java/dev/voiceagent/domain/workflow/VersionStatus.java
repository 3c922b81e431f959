package dev.voiceagent.domain.workflow;

import java.util.Locale;

/** A definition version: at most one draft and exactly one published per workflow; the rest archived. */
public enum VersionStatus {
    DRAFT, PUBLISHED, ARCHIVED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static VersionStatus fromWireName(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
