package dev.voiceagent.adapters.postgres.shared;

import java.util.Arrays;
import java.util.stream.Collectors;

/** Column lists, spelled once per table beside their one reader, and qualified for joins by one rule. */
public final class Columns {

    private Columns() {
    }

    /** How many columns a list names. */
    public static int count(String columns) {
        return columns.split(",").length;
    }

    /**
     * Where a column stands in a list (0-based), for readers that read by index: the index is derived from the one
     * list, never written by hand. Fails at class initialisation when the list does not name it.
     */
    public static int index(String columns, String column) {
        String[] names = columns.split(",");
        for (int i = 0; i < names.length; i++) {
            if (names[i].strip().equals(column)) {
                return i;
            }
        }
        throw new IllegalArgumentException(column + " is not one of " + columns);
    }

    /** {@code "id, name"} with alias {@code r}: {@code "r.id, r.name"}. */
    public static String prefixed(String alias, String columns) {
        return Arrays.stream(columns.split(",")).map(String::strip).map(c -> alias + "." + c)
                .collect(Collectors.joining(", "));
    }
}
