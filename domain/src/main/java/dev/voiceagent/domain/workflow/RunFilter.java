package dev.voiceagent.domain.workflow;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A filter of the runs list, parsed from the client's JSON array of {attribute, value} objects.
 * Attributes: dateRange, dispositionCode, duration, status, tokenUsage.
 */
public sealed interface RunFilter {

    List<String> ATTRIBUTES = List.of("dateRange", "dispositionCode", "duration", "status", "tokenUsage");

    /** created_at within [from, to]; either end may be open. */
    record DateRange(Instant from, Instant to) implements RunFilter {
    }

    /** gathered_context.mapped_call_disposition is one of the codes. */
    record Dispositions(List<String> codes) implements RunFilter {
    }

    /** usage_info.call_duration_seconds within [min, max]. */
    record Duration(Double min, Double max) implements RunFilter {
    }

    /** completed or still running. */
    record Status(boolean completed) implements RunFilter {
    }

    /** cost_info.dograh_token_usage within [min, max]. */
    record TokenUsage(Double min, Double max) implements RunFilter {
    }

    static List<RunFilter> parse(List<?> raw) {
        List<RunFilter> filters = new ArrayList<>();
        for (Object item : raw) {
            Map<String, Object> filter = JsonTree.asMap(item);
            if (filter == null) {
                throw new DomainRuleViolation("Invalid filter format");
            }
            String attribute = JsonTree.asString(filter.get("attribute"));
            Map<String, Object> value = JsonTree.asMap(filter.get("value"));
            if (attribute == null || !ATTRIBUTES.contains(attribute)) {
                throw new DomainRuleViolation("Invalid attribute '" + attribute + "'");
            }
            if (value == null) {
                throw new DomainRuleViolation("Invalid filter format");
            }
            filters.add(switch (attribute) {
                case "dateRange" -> new DateRange(instant(value.get("from")), instant(value.get("to")));
                case "dispositionCode" -> new Dispositions(strings(value.get("codes")));
                case "duration" -> new Duration(number(value.get("min")), number(value.get("max")));
                case "status" -> new Status(status(value.get("status")));
                default -> new TokenUsage(number(value.get("min")), number(value.get("max")));
            });
        }
        return filters;
    }

    private static Instant instant(Object value) {
        if (value == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(String.valueOf(value)).toInstant();
        } catch (DateTimeException e) {
            try {
                return Instant.parse(String.valueOf(value));
            } catch (DateTimeException again) {
                throw new DomainRuleViolation("Invalid filter format: dateRange needs ISO-8601 date-times");
            }
        }
    }

    private static List<String> strings(Object value) {
        if (!(value instanceof List<?> list) || !list.stream().allMatch(v -> v instanceof String)) {
            throw new DomainRuleViolation("Invalid filter format: codes must be a list of strings");
        }
        return list.stream().map(String.class::cast).toList();
    }

    private static Double number(Object value) {
        if (value == null) {
            return null;
        }
        if (!(value instanceof Number n)) {
            throw new DomainRuleViolation("Invalid filter format: min and max must be numbers");
        }
        return n.doubleValue();
    }

    private static boolean status(Object value) {
        if ("completed".equals(value)) {
            return true;
        }
        if ("running".equals(value) || "in_progress".equals(value) || "incomplete".equals(value)) {
            return false;
        }
        throw new DomainRuleViolation("Invalid filter format: status must be 'completed' or 'running'");
    }
}
