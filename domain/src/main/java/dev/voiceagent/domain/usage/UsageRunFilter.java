package dev.voiceagent.domain.usage;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.workflow.JsonTree;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A filter of the organization's usage runs, parsed from the reference's JSON array of {attribute, type, value}.
 * Unknown attributes and unsupported types are ignored (as the reference documents); a known one with a value of
 * the wrong shape is refused.
 */
public sealed interface UsageRunFilter {

    Set<String> TELEPHONY_MODES = Set.of("ari", "plivo", "twilio", "vonage", "vobiz", "cloudonix", "telnyx",
            "simulator");
    Set<String> WEB_MODES = Set.of("webrtc", "smallwebrtc");
    Set<String> CHAT_MODES = Set.of("textchat");

    /** runId, workflowId or campaignId equals the value. */
    record Id(String attribute, long value) implements UsageRunFilter {
    }

    /** initial_context.caller_number or called_number contains the text. */
    record NumberContains(String attribute, String text) implements UsageRunFilter {
    }

    record Dispositions(List<String> codes) implements UsageRunFilter {
    }

    /** Call seconds within [min, max], either end open. */
    record Duration(Long min, Long max) implements UsageRunFilter {
    }

    record Direction(String callType) implements UsageRunFilter {
    }

    /** The run modes of a channel: telephony, web or chat. */
    record Channel(Set<String> modes) implements UsageRunFilter {
    }

    static List<UsageRunFilter> parse(List<?> raw) {
        List<UsageRunFilter> filters = new ArrayList<>();
        for (Object item : raw) {
            Map<String, Object> filter = JsonTree.asMap(item);
            if (filter == null) {
                throw new DomainRuleViolation("Invalid filters format");
            }
            String attribute = JsonTree.asString(filter.get("attribute"));
            String type = JsonTree.asString(filter.get("type"));
            Map<String, Object> value = JsonTree.asMap(filter.get("value"));
            UsageRunFilter parsed = attribute == null || type == null ? null : switch (attribute + "/" + type) {
                case "runId/number", "workflowId/number", "campaignId/number" ->
                        new Id(attribute, whole(attribute, value, "value"));
                case "callerNumber/text", "calledNumber/text" -> new NumberContains(attribute, text(attribute, value));
                case "dispositionCode/multiSelect" -> codes(value);
                case "duration/numberRange" -> new Duration(optionalWhole(value, "min"), optionalWhole(value, "max"));
                case "callDirection/radio" -> direction(value);
                case "callChannel/radio" -> channel(value);
                default -> null;
            };
            if (parsed != null) {
                filters.add(parsed);
            }
        }
        return List.copyOf(filters);
    }

    private static long whole(String attribute, Map<String, Object> value, String key) {
        if (value == null || !(value.get(key) instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
            throw new DomainRuleViolation("Invalid filters format: " + attribute + " needs {\"value\": <integer>}");
        }
        return n.longValue();
    }

    private static Long optionalWhole(Map<String, Object> value, String key) {
        if (value == null) {
            throw new DomainRuleViolation("Invalid filters format: duration needs {\"min\": n, \"max\": n}");
        }
        Object v = value.get(key);
        if (v == null) {
            return null;
        }
        if (!(v instanceof Number n) || !Double.isFinite(n.doubleValue())) {
            throw new DomainRuleViolation("Invalid filters format: duration " + key + " must be a number");
        }
        return (long) Math.ceil(n.doubleValue());
    }

    private static String text(String attribute, Map<String, Object> value) {
        if (value == null || !(value.get("value") instanceof String s)) {
            throw new DomainRuleViolation("Invalid filters format: " + attribute + " needs {\"value\": \"text\"}");
        }
        return s.strip();
    }

    private static Dispositions codes(Map<String, Object> value) {
        List<?> codes = value == null ? null : JsonTree.asList(value.get("codes"));
        if (codes == null || codes.stream().anyMatch(c -> !(c instanceof String))) {
            throw new DomainRuleViolation("Invalid filters format: dispositionCode needs {\"codes\": [\"...\"]}");
        }
        return new Dispositions(codes.stream().map(String.class::cast).toList());
    }

    /** inbound or outbound; any other value matches every run (no filter). */
    private static UsageRunFilter direction(Map<String, Object> value) {
        String status = value == null ? null : JsonTree.asString(value.get("status"));
        return "inbound".equals(status) || "outbound".equals(status) ? new Direction(status) : null;
    }

    private static UsageRunFilter channel(Map<String, Object> value) {
        String status = value == null ? null : JsonTree.asString(value.get("status"));
        return switch (status == null ? "" : status) {
            case "telephony" -> new Channel(TELEPHONY_MODES);
            case "web" -> new Channel(WEB_MODES);
            case "chat" -> new Channel(CHAT_MODES);
            default -> null;
        };
    }
}
