package dev.voiceagent.domain.tool;

import dev.voiceagent.domain.workflow.JsonTree;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a transfer_call tool sends the call, decided at call time as the reference decides it: a static destination
 * (which may be a template, {@code {{initial_context.transfer_destination}}}), or the first context-mapping rule whose
 * context value matches one of its routes (a path checks the gathered context, then the initial one, unless prefixed
 * {@code initial_context.} or {@code gathered_context.}; values compared without case), else the fallback. A
 * destination that renders empty, or no match without a fallback, is a refusal with its reason. (The dynamic source
 * asks an HTTP resolver: the caller's business.)
 */
public final class TransferDestinations {

    private static final Pattern REFERENCE = Pattern.compile("\\{\\{\\s*([^{}|]+?)\\s*}}");

    /** The destination, or why there is none (then destination is null). */
    public record Resolution(String destination, String source, String problem) {

        static Resolution of(String destination, String source) {
            return new Resolution(destination, source, null);
        }

        static Resolution refused(String source, String problem) {
            return new Resolution(null, source, problem);
        }
    }

    private TransferDestinations() {
    }

    public static Resolution resolve(Map<String, Object> config, Map<String, Object> initial,
            Map<String, Object> gathered) {
        Map<String, Object> in = initial == null ? Map.of() : initial;
        Map<String, Object> got = gathered == null ? Map.of() : gathered;
        String source = JsonTree.asString(config.get("destination_source"));
        if ("context_mapping".equals(source)) {
            return contextMapping(JsonTree.asMap(config.get("context_mapping")), in, got);
        }
        String destination = render(JsonTree.asString(config.get("destination")), in, got);
        return destination.isEmpty() ? Resolution.refused("static", "The transfer's destination is empty"
                + " (a template whose values the call does not have?)") : Resolution.of(destination, "static");
    }

    private static Resolution contextMapping(Map<String, Object> mapping, Map<String, Object> initial,
            Map<String, Object> gathered) {
        if (mapping == null) {
            return Resolution.refused("context_mapping", "The transfer's context mapping is missing");
        }
        List<Map<String, Object>> rules = new ArrayList<>();
        if (JsonTree.asList(mapping.get("rules")) instanceof List<?> list) {
            list.forEach(r -> {
                Map<String, Object> rule = JsonTree.asMap(r);
                if (rule != null) {
                    rules.add(rule);
                }
            });
        } else if (mapping.get("context_path") != null || mapping.get("routes") != null) { // the legacy single rule
            rules.add(mapping);
        }
        List<String> evaluated = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            String path = JsonTree.asString(rules.get(i).get("context_path"));
            if (path == null || path.isBlank()) {
                continue;
            }
            evaluated.add(path.strip());
            Object raw = value(path.strip(), initial, gathered);
            String match = raw == null ? "" : String.valueOf(raw).strip().toLowerCase(Locale.ROOT);
            if (match.isEmpty()) {
                continue;
            }
            List<?> routes = JsonTree.asList(rules.get(i).get("routes"));
            for (Object r : routes == null ? List.of() : routes) {
                Map<String, Object> route = JsonTree.asMap(r);
                String value = route == null ? null : JsonTree.asString(route.get("context_value"));
                if (value != null && value.strip().toLowerCase(Locale.ROOT).equals(match)) {
                    String destination = render(JsonTree.asString(route.get("destination")), initial, gathered);
                    return destination.isEmpty() ? Resolution.refused("context_mapping", "The destination for"
                            + " context mapping rule " + (i + 1) + " is empty")
                            : Resolution.of(destination, "context_mapping");
                }
            }
        }
        String fallback = JsonTree.asString(mapping.get("fallback_destination"));
        if (fallback != null && !fallback.isBlank()) {
            String destination = render(fallback, initial, gathered);
            return destination.isEmpty() ? Resolution.refused("context_mapping",
                    "The context mapping's fallback destination is empty") : Resolution.of(destination,
                    "context_mapping");
        }
        return Resolution.refused("context_mapping", "No destination mapping matched context paths '"
                + String.join(", ", evaluated) + "'");
    }

    /** A context path's value: gathered first, then initial, unless the path names one. */
    static Object value(String path, Map<String, Object> initial, Map<String, Object> gathered) {
        if (path.startsWith("initial_context.")) {
            return read(initial, path.substring("initial_context.".length()));
        }
        if (path.startsWith("gathered_context.")) {
            return read(gathered, path.substring("gathered_context.".length()));
        }
        Object found = read(gathered, path);
        if (found == null && !path.contains(".") && JsonTree.asMap(gathered.get("extracted_variables")) != null) {
            found = JsonTree.asMap(gathered.get("extracted_variables")).get(path);
        }
        return found != null ? found : read(initial, path);
    }

    private static Object read(Map<String, Object> context, String dotted) {
        Object current = context;
        for (String part : dotted.split("\\.")) {
            if (!(current instanceof Map<?, ?> map)) {
                return null;
            }
            current = map.get(part);
        }
        return current;
    }

    /** A destination with its {{path}} references filled from the call's context; stripped. */
    static String render(String template, Map<String, Object> initial, Map<String, Object> gathered) {
        if (template == null) {
            return "";
        }
        Matcher m = REFERENCE.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            Object v = value(m.group(1).strip(), initial, gathered);
            m.appendReplacement(out, Matcher.quoteReplacement(v == null ? "" : String.valueOf(v)));
        }
        m.appendTail(out);
        return out.toString().strip();
    }
}
