package dev.voiceagent.domain.campaign;

import java.util.Locale;

public enum LogLevel {
    INFO, WARNING, ERROR;

    private final String wireName = name().toLowerCase(Locale.ROOT);

    public String wireName() {
        return wireName;
    }

    /** The stored and wire form (lower case; any case accepted); an unknown name is an IllegalArgumentException. */
    public static LogLevel fromWireName(String value) {
        return switch (value) {
            case "info" -> INFO;
            case "warning" -> WARNING;
            case "error" -> ERROR;
            default -> valueOf(value.toUpperCase(Locale.ROOT));
        };
    }
}
