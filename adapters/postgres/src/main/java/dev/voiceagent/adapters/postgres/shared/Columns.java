package dev.voiceagent.adapters.postgres.shared;

import java.util.Arrays;
import java.util.stream.Collectors;

/** Column lists, spelled once per table beside their one reader, and qualified for joins by one rule. */
public final class Columns {

    private Columns() {
    }

    /** {@code "id, name"} with alias {@code r}: {@code "r.id, r.name"}. */
    public static String prefixed(String alias, String columns) {
        return Arrays.stream(columns.split(",")).map(String::strip).map(c -> alias + "." + c)
                .collect(Collectors.joining(", "));
    }
}
