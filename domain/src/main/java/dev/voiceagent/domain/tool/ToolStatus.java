package dev.voiceagent.domain.tool;

import java.util.Locale;
import java.util.Optional;

public enum ToolStatus {
    ACTIVE, ARCHIVED, DRAFT;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<ToolStatus> byWireName(String name) {
        for (ToolStatus s : values()) {
            if (s.wireName().equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
