package dev.voiceagent.domain.tool;

import java.util.Locale;
import java.util.Optional;

/** What a tool does; a tool's category is its definition's type. */
public enum ToolCategory {
    HTTP_API, END_CALL, TRANSFER_CALL, CALCULATOR, NATIVE, INTEGRATION, MCP;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<ToolCategory> byWireName(String name) {
        for (ToolCategory c : values()) {
            if (c.wireName().equals(name)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
