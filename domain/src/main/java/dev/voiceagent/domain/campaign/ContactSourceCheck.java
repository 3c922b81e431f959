package dev.voiceagent.domain.campaign;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * Checks a contact source row by row, keeping only what the messages need, so a large file is read
 * once at flat memory (E.164 numbers are remembered as longs). Row numbers count the header as row 1.
 * The first failing rule, in the reference's order, becomes the 400 message.
 */
public final class ContactSourceCheck {

    static final int SHOWN = 5;

    private final Set<String> requiredVariables;
    private final UnaryOperator<String> normalizer;
    private List<String> header;
    private int phoneColumn = -1;
    private int timezoneColumn = -1;
    private final Map<String, Integer> variableColumns = new LinkedHashMap<>();
    private int rowNumber = 1;
    private int rows;
    private final List<Integer> invalidPhones = new ArrayList<>();
    private int invalidPhoneCount;
    private final List<Integer> duplicates = new ArrayList<>();
    private int duplicateCount;
    private final Map<String, List<Integer>> emptyVariables = new LinkedHashMap<>();
    private final Map<String, Integer> emptyVariableCounts = new LinkedHashMap<>();
    private final List<Integer> invalidZones = new ArrayList<>();
    private int invalidZoneCount;
    private final LongSet seenNumbers = new LongSet();
    private final Set<String> seenAddresses = new HashSet<>();

    /** @param normalizer gives the dialable form of a number or throws DomainRuleViolation */
    public ContactSourceCheck(Set<String> requiredVariables, UnaryOperator<String> normalizer) {
        this.requiredVariables = new TreeSet<>(requiredVariables);
        this.normalizer = normalizer;
    }

    public void header(List<String> columns) {
        header = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            String name = columns.get(i) == null ? "" : columns.get(i).strip();
            if (i == 0 && name.startsWith("\uFEFF")) {
                name = name.substring(1).strip();
            }
            name = name.toLowerCase(Locale.ROOT);
            header.add(name);
            if (name.equals("phone_number") && phoneColumn < 0) {
                phoneColumn = i;
            } else if (name.equals("timezone") && timezoneColumn < 0) {
                timezoneColumn = i;
            }
        }
        for (String variable : requiredVariables) {
            int index = header.indexOf(variable.toLowerCase(Locale.ROOT));
            if (index >= 0) {
                variableColumns.put(variable, index);
            }
        }
    }

    /** The dialable number of the row, or null when the row is blank or invalid (the failure is recorded). */
    public String row(List<String> values) {
        rowNumber++;
        if (header == null || phoneColumn < 0 || values.stream().allMatch(v -> v == null || v.isBlank())) {
            if (header != null && phoneColumn < 0) {
                rows++;
            }
            return null;
        }
        rows++;
        String raw = phoneColumn < values.size() ? values.get(phoneColumn) : null;
        String normalized = null;
        try {
            normalized = normalizer.apply(raw == null ? "" : raw);
        } catch (DomainRuleViolation e) {
            invalidPhoneCount = note(invalidPhones, invalidPhoneCount);
        }
        if (normalized != null && !remember(normalized)) {
            duplicateCount = note(duplicates, duplicateCount);
            normalized = null;
        }
        for (Map.Entry<String, Integer> variable : variableColumns.entrySet()) {
            int column = variable.getValue();
            if (column >= values.size() || values.get(column) == null || values.get(column).isBlank()) {
                List<Integer> rowsOf = emptyVariables.computeIfAbsent(variable.getKey(), k -> new ArrayList<>());
                emptyVariableCounts.put(variable.getKey(), note(rowsOf, emptyVariableCounts.getOrDefault(variable.getKey(), 0)));
            }
        }
        if (timezoneColumn >= 0 && timezoneColumn < values.size() && values.get(timezoneColumn) != null
                && !values.get(timezoneColumn).isBlank()) {
            try {
                ZoneId.of(values.get(timezoneColumn).strip());
            } catch (DateTimeException e) {
                invalidZoneCount = note(invalidZones, invalidZoneCount);
            }
        }
        return normalized;
    }

    private int note(List<Integer> rowsOf, int count) {
        if (rowsOf.size() < SHOWN) {
            rowsOf.add(rowNumber);
        }
        return count + 1;
    }

    private boolean remember(String normalized) {
        if (normalized.startsWith("+") && normalized.length() <= 19 && normalized.substring(1).chars().allMatch(Character::isDigit)) {
            return seenNumbers.add(Long.parseLong(normalized.substring(1)));
        }
        return seenAddresses.add(normalized);
    }

    /** Data rows seen (blank lines excluded). */
    public int rows() {
        return rows;
    }

    /** Throws the first failing rule as a DomainRuleViolation (400). */
    public void finish(String providerName) {
        if (header == null || rows == 0) {
            throw new DomainRuleViolation("CSV file must have a header row and at least one data row");
        }
        if (phoneColumn < 0) {
            throw new DomainRuleViolation("Source must contain a 'phone_number' column");
        }
        if (invalidPhoneCount > 0) {
            throw new DomainRuleViolation("Invalid phone numbers in rows: " + list(invalidPhones, invalidPhoneCount)
                    + ". Phone numbers must be valid for " + providerName + " (E.164 with country code, e.g. +14155552671).");
        }
        if (duplicateCount > 0) {
            throw new DomainRuleViolation("Duplicate phone numbers found in rows: " + list(duplicates, duplicateCount)
                    + ". Phone numbers in a campaign must be unique.");
        }
        List<String> missing = requiredVariables.stream().filter(v -> !variableColumns.containsKey(v)).toList();
        if (!missing.isEmpty()) {
            throw new DomainRuleViolation("Workflow uses template variables that are missing from the source data: "
                    + String.join(", ", missing.stream().map(v -> "'" + v + "'").toList())
                    + ". Add the missing columns or remove them from the workflow.");
        }
        for (Map.Entry<String, List<Integer>> empty : emptyVariables.entrySet()) {
            throw new DomainRuleViolation("Template variable '" + empty.getKey() + "' is empty in rows: "
                    + list(empty.getValue(), emptyVariableCounts.get(empty.getKey()))
                    + ". All template variables used in the workflow must have values in every row.");
        }
        if (invalidZoneCount > 0) {
            throw new DomainRuleViolation("Invalid timezone in rows: " + list(invalidZones, invalidZoneCount)
                    + ". Use IANA names such as Europe/Berlin.");
        }
    }

    /** "2, 5" or "a, b, c, d, e and N more". */
    static String list(List<Integer> shown, int total) {
        String joined = String.join(", ", shown.stream().map(String::valueOf).toList());
        return total > shown.size() ? joined + " and " + (total - shown.size()) + " more" : joined;
    }

    /** An open-addressing set of longs: 16 bytes a number at most, no boxing. */
    static final class LongSet {
        private long[] keys = new long[1024];
        private boolean[] used = new boolean[1024];
        private int size;

        boolean add(long value) {
            if ((size + 1) * 2 > keys.length) {
                grow();
            }
            int mask = keys.length - 1;
            int i = Long.hashCode(value * 0x9E3779B97F4A7C15L) & mask;
            while (used[i]) {
                if (keys[i] == value) {
                    return false;
                }
                i = (i + 1) & mask;
            }
            used[i] = true;
            keys[i] = value;
            size++;
            return true;
        }

        private void grow() {
            long[] oldKeys = keys;
            boolean[] oldUsed = used;
            keys = new long[oldKeys.length * 2];
            used = new boolean[oldKeys.length * 2];
            size = 0;
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldUsed[i]) {
                    add(oldKeys[i]);
                }
            }
        }
    }
}
