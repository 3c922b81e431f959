package dev.voiceagent.domain.campaign;

import java.util.Locale;

public enum LogLevel {
    INFO, WARNING, ERROR;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static LogLevel fromWireName(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
